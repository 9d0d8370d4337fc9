package io.plumb.load;

/**
 * The worker's clock for every timestamp Plumb records: epoch nanoseconds, advanced by {@link
 * System#nanoTime()} so it never jumps with wall-clock adjustments, and comparable across hosts
 * once the coordinator has measured each worker's offset.
 */
public final class WorkerClock {
  private final long offset;

  public WorkerClock() {
    this(0);
  }

  /**
   * @param skewNanos added to every reading; only tests use it, to play a host whose clock is off
   */
  public WorkerClock(long skewNanos) {
    // Instant.now() rather than currentTimeMillis(): microseconds, not a millisecond of error
    // between the clocks of two workers on the same host.
    java.time.Instant wall = java.time.Instant.now();
    long wallNanos = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
    this.offset = wallNanos - System.nanoTime() + skewNanos;
  }

  public long now() {
    return System.nanoTime() + offset;
  }
}
