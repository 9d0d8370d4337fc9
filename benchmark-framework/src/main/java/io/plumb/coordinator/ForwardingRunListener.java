package io.plumb.coordinator;

import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;

/**
 * A listener in front of another, passing everything on: what one that watches a run on the way
 * (resource sampling, the last measured lag) extends, overriding only what it watches.
 */
public abstract class ForwardingRunListener implements RunListener {
  private final RunListener next;

  protected ForwardingRunListener(RunListener next) {
    this.next = next;
  }

  @Override
  public void step(String message) {
    next.step(message);
  }

  @Override
  public void phaseStarted(Phase phase) {
    next.phaseStarted(phase);
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
    next.period(phase, elapsedSeconds, phaseSeconds, stats, periodSeconds, backlog, lagMessages);
  }

  @Override
  public void finished(RunReport report) {
    next.finished(report);
  }
}
