package io.plumb.load;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits for a send time, as {@link Pacing} chooses. A park costs a producer thread a timer wake-up:
 * 10 to 30 us of CPU on a virtual machine (more on an idle one, whose CPU leaves and re-enters its
 * idle state each time), whatever the wait. Waking for every message at 10,000 msg/s would cost a
 * quarter of a core; spinning until each send, more. So efficient pacing gives a worker {@link
 * #WAKE_UPS_PER_SECOND} wake-ups a second, shared by its producer threads, but at least one a
 * millisecond to each, and sends what fell due meanwhile, each message still stamped with its
 * intended time; precise pacing wakes early and spins.
 */
final class Pacer {
  /** A wait this short spins in either mode: a park would cost more and land later. */
  private static final long SPIN_BELOW_NANOS = 20_000;

  /** Efficient pacing's wake-ups a second for a whole worker: about 0.05 of a core. */
  static final int WAKE_UPS_PER_SECOND = 2_000;

  /**
   * Efficient pacing's longest interval between a thread's wake-ups, whatever the threads: shared
   * among the 16 threads of a 16-core worker, 2,000 wake-ups would leave each thread's sends up to
   * 8 ms late, a send delay that shows in every latency figure.
   */
  static final long MAX_WAKE_INTERVAL_NANOS = 1_000_000;

  /** Shorter parks are not worth their wake-up. */
  private static final long MIN_PARK_NANOS = 10_000;

  /** Precise pacing parks until this long before the send time and spins the rest. */
  private static final long WAKE_EARLY_BY_NANOS = 70_000;

  private final WorkerClock clock;
  private final Pacing pacing;

  /** Efficient pacing's fewest nanoseconds between two wake-ups of this thread. */
  private final long minWakeInterval;

  private long lastWake = Long.MIN_VALUE / 2;

  /**
   * @param threads producer threads of the worker, which share its wake-ups
   */
  Pacer(WorkerClock clock, Pacing pacing, int threads) {
    this.clock = clock;
    this.pacing = pacing;
    this.minWakeInterval =
        Math.min(MAX_WAKE_INTERVAL_NANOS, 1_000_000_000L * threads / WAKE_UPS_PER_SECOND);
  }

  /** Efficient pacing's fewest nanoseconds between two wake-ups of this thread. */
  long minWakeInterval() {
    return minWakeInterval;
  }

  /** Called once on the producer thread before it waits the first time. */
  void onThreadStart() {
    TimerSlack.minimiseForThisThread();
  }

  /** Returns the clock's time once it has reached {@code deadline}, or early if {@code stop}. */
  long waitUntil(long deadline, ProducerLoop loop) {
    long wakeAt =
        pacing == Pacing.EFFICIENT
            ? Math.max(deadline, lastWake + minWakeInterval)
            : deadline - WAKE_EARLY_BY_NANOS;
    long now = clock.now();
    while (now < deadline && loop.running()) {
      long parkFor = Math.min(wakeAt - now, 100_000_000);
      if (deadline - now > SPIN_BELOW_NANOS && parkFor > MIN_PARK_NANOS) {
        LockSupport.parkNanos(parkFor);
      } else {
        Thread.onSpinWait();
      }
      now = clock.now();
    }
    lastWake = now;
    return now;
  }
}
