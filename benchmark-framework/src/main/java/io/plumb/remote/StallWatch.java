package io.plumb.remote;

import java.time.Duration;

/**
 * Tells when the thread that ticks it stood still: a JVM pause or a frozen host leaves a gap
 * between ticks far longer than their period. Time a side stood still is not the other side's
 * silence (its messages waited unread), so the lease and the heartbeat do not count it.
 */
final class StallWatch {
  private final long stallNanos;
  private long tickedAt;

  /**
   * {@code stall}: the gap between ticks that counts as standing still, well above their period.
   */
  StallWatch(Duration stall, long now) {
    this.stallNanos = stall.toNanos();
    this.tickedAt = now;
  }

  /** Records a tick at {@code now}; the gap since the last tick when it was a stall, else 0. */
  long tick(long now) {
    long gap = now - tickedAt;
    tickedAt = now;
    return gap > stallNanos ? gap : 0;
  }
}
