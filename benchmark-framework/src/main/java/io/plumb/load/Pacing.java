package io.plumb.load;

/**
 * How producer threads wait for the next send time: the trade between the generator's CPU and how
 * close to its intended time each message goes out. Either way every message keeps its intended
 * time, and the delay it went out with is measured and reported as send delay.
 */
public enum Pacing {
  /**
   * Parks between sends and wakes at most every 250 us, sending what fell due meanwhile; waits
   * under 20 us spin. At 10,000 msg/s the generator uses under a tenth of a core, and sends go out
   * up to about 0.3 ms after their intended time; from about 50,000 msg/s per thread the waits are
   * short enough to spin and sends are on time to microseconds.
   */
  EFFICIENT,

  /**
   * Parks until 70 us before each send and spins the rest: sends go out within microseconds of
   * their intended time at any rate, for a CPU cost that grows with the number of sends (about a
   * quarter of a core at 10,000 msg/s). For latencies of tens of microseconds, where a send delay
   * of a fraction of a millisecond would show in publish and end-to-end latency.
   */
  PRECISE
}
