package io.plumb.search;

import io.plumb.coordinator.ForwardingRunListener;
import io.plumb.coordinator.Phase;
import io.plumb.coordinator.RunListener;
import io.plumb.stats.PeriodStats;

/**
 * Passes everything on to another listener, keeping the schedule lag of the last measured period:
 * what a probe's outcome reads to tell a generator that fell behind from a broker that did.
 */
public final class LastMeasuredLag extends ForwardingRunListener {
  private volatile long last;

  public LastMeasuredLag(RunListener delegate) {
    super(delegate);
  }

  /** Scheduled messages not yet sent at the end of the last measured period; 0 before one. */
  public long last() {
    return last;
  }

  @Override
  protected void periodEnded(
      Phase phase, PeriodStats stats, double periodSeconds, long lagMessages) {
    if (phase == Phase.MEASURE) {
      last = lagMessages;
    }
  }
}
