package io.plumb.coordinator;

import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;

/**
 * A listener in front of another, passing everything on: what one that watches a run on the way
 * (resource sampling, the last measured lag) extends. Each period's end reaches it through {@link
 * #periodEnded}, with only the figures such a watcher reads, before the next listener hears of it.
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
  public final void period(
      Phase phase,
      double elapsedSeconds,
      double phaseSeconds,
      PeriodStats stats,
      double periodSeconds,
      long backlog,
      long lagMessages) {
    periodEnded(phase, stats, periodSeconds, lagMessages);
    next.period(phase, elapsedSeconds, phaseSeconds, stats, periodSeconds, backlog, lagMessages);
  }

  @Override
  public void finished(RunReport report) {
    next.finished(report);
  }

  /**
   * A period of {@code periodSeconds} ended in {@code phase} with {@code stats}, {@code
   * lagMessages} scheduled messages not yet sent.
   */
  protected void periodEnded(
      Phase phase, PeriodStats stats, double periodSeconds, long lagMessages) {}
}
