package io.plumb.search;

import io.plumb.coordinator.Phase;
import io.plumb.coordinator.RunListener;
import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;

/**
 * Passes everything on to another listener, keeping the schedule lag of the last measured period:
 * what a probe's outcome reads to tell a generator that fell behind from a broker that did.
 */
public final class LastMeasuredLag implements RunListener {
  private final RunListener delegate;
  private volatile long last;

  public LastMeasuredLag(RunListener delegate) {
    this.delegate = delegate;
  }

  /** Scheduled messages not yet sent at the end of the last measured period; 0 before one. */
  public long last() {
    return last;
  }

  @Override
  public void step(String message) {
    delegate.step(message);
  }

  @Override
  public void phaseStarted(Phase phase) {
    delegate.phaseStarted(phase);
  }

  @Override
  public void period(
      Phase phase,
      double elapsedSeconds,
      double phaseSeconds,
      PeriodStats stats,
      double periodSeconds,
      long backlog,
      long lagMessages) {
    if (phase == Phase.MEASURE) {
      last = lagMessages;
    }
    delegate.period(
        phase, elapsedSeconds, phaseSeconds, stats, periodSeconds, backlog, lagMessages);
  }

  @Override
  public void finished(RunReport report) {
    delegate.finished(report);
  }
}
