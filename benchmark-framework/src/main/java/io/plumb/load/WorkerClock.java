package io.plumb.load;

/**
 * The worker's clock for every timestamp Plumb records: epoch nanoseconds, advanced by {@link
 * System#nanoTime()} so it never jumps with wall-clock adjustments, and comparable across hosts
 * once the coordinator has measured each worker's offset.
 */
public final class WorkerClock {
  private final long offset;

  public WorkerClock() {
    long wallNanos = System.currentTimeMillis() * 1_000_000L;
    this.offset = wallNanos - System.nanoTime();
  }

  public long now() {
    return System.nanoTime() + offset;
  }
}
