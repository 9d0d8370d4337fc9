package io.plumb.load;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits for a send time. Parking costs a timer wake-up that the kernel rounds up by about 50 us, so
 * long waits park until shortly before the deadline and spin the rest: short gaps are hit to within
 * a microsecond without burning a core at low rates.
 */
final class Pacer {
  private static final long PARK_WHEN_MORE_THAN_NANOS = 150_000;
  private static final long WAKE_EARLY_BY_NANOS = 100_000;

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
