package io.plumb.load;

/**
 * How producer threads wait for the next send time: the trade between the generator's CPU and how
 * close to its intended time each message goes out. Either way every message keeps its intended
 * time, and the delay it went out with is measured and reported as send delay.
 */
public enum Pacing {
  /**
   * Parks between sends, the worker's producer threads waking 2,000 times a second in all (each
   * every 0.5 ms with one thread, 1 ms with two or more: a worker of more threads wakes 1,000 times
   * a second per thread), and sends what fell due meanwhile; waits under 20 us spin. At 10,000
   * msg/s the generator uses under a tenth of a core, and sends go out up to 0.5 to 1 ms after
   * their intended time; from about 50,000 msg/s per thread the waits are short enough to spin and
   * sends are on time to microseconds.
   */
  EFFICIENT,

  /**
   * Parks until 70 us before each send and spins the rest: sends go out within microseconds of
   * their intended time at any rate, for a CPU cost that grows with the number of sends (about two
   * thirds of a core at 10,000 msg/s on an idle 2-core VM). For latencies of tens of microseconds,
   * where a send delay of a fraction of a millisecond would show in publish and end-to-end latency.
   */
  PRECISE
}
