package io.plumb.coordinator;

import io.plumb.result.RunReport;

/**
 * A listener in front of another, passing everything on: what one that watches a run on the way
 * (resource sampling, the last measured lag) extends. Each period's end reaches it through {@link
 * #periodEnded} before the next listener hears of it.
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
  public final void period(PeriodProgress progress) {
    periodEnded(progress);
    next.period(progress);
  }

  @Override
  public void finished(RunReport report) {
    next.finished(report);
  }

  /** A period ended; the next listener hears of it after this returns. */
  protected void periodEnded(PeriodProgress progress) {}
}
