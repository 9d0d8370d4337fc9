package io.plumb.load;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits for a send time. Parking costs a timer wake-up that the kernel rounds up by about 50 us
 * (timer slack), so a wait longer than 80 us parks until about 70 us before the deadline and spins
 * the rest; shorter waits spin. Send times are hit to within a few microseconds, and at 10,000
 * msg/s a producer thread uses a fraction of a core instead of all of it, which a broker sharing
 * the host would otherwise lose to the load generator.
 */
final class Pacer {
  private static final long PARK_WHEN_MORE_THAN_NANOS = 80_000;
  private static final long WAKE_EARLY_BY_NANOS = 70_000;

  private final WorkerClock clock;

  Pacer(WorkerClock clock) {
    this.clock = clock;
  }

  /** Returns the clock's time once it has reached {@code deadline}, or early if {@code stop}. */
  long waitUntil(long deadline, ProducerLoop loop) {
    long now = clock.now();
    while (now < deadline && loop.running()) {
      long remaining = deadline - now;
      if (remaining > PARK_WHEN_MORE_THAN_NANOS) {
        LockSupport.parkNanos(Math.min(remaining - WAKE_EARLY_BY_NANOS, 100_000_000));
      } else {
        Thread.onSpinWait();
      }
      now = clock.now();
    }
    return now;
  }
}
