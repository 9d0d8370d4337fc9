package io.plumb.load;

/**
 * The worker's clock for every timestamp Plumb records: epoch nanoseconds, advanced by {@link
 * System#nanoTime()} so it never jumps with wall-clock adjustments, and comparable across hosts
 * once the coordinator has measured each worker's offset.
 */
public final class WorkerClock {
  /** Wall-clock reads bracketed by nanoTime reads; the tightest bracket sets the anchor. */
  private static final int ANCHOR_READS = 50;

  private final long offset;

  public WorkerClock() {
    this(0);
  }

  /**
   * @param skewNanos added to every reading; only tests use it, to play a host whose clock is off
   */
  public WorkerClock(long skewNanos) {
    this.offset = wallMinusNanoTime() + skewNanos;
  }

  public long now() {
    return System.nanoTime() + offset;
  }

  /**
   * The wall clock minus nanoTime, from the read whose two nanoTime reads lie closest together: a
   * single read can be preempted between the two clocks (milliseconds on a busy host, up to 9 ms
   * seen under libfaketime), and that error would stay in every timestamp of the run. Instant.now()
   * rather than currentTimeMillis(): microseconds, not a millisecond of error.
   */
  private static long wallMinusNanoTime() {
    long tightest = Long.MAX_VALUE;
    long anchor = 0;
    for (int i = 0; i < ANCHOR_READS; i++) {
      long before = System.nanoTime();
      java.time.Instant wall = java.time.Instant.now();
      long after = System.nanoTime();
      if (after - before < tightest) {
        tightest = after - before;
        long wallNanos = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
        anchor = wallNanos - (before + (after - before) / 2);
      }
    }
    return anchor;
  }
}
