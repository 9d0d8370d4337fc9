package io.plumb.coordinator;

import io.plumb.stats.PeriodStats;

/** A listener that hands each period's phase, figures and length to a test, and nothing else. */
public final class EachPeriod extends ForwardingRunListener {
  /** What a test does with one period. */
  @FunctionalInterface
  public interface Action {
    void accept(Phase phase, PeriodStats stats, double periodSeconds);
  }

  private final Action action;

  public EachPeriod(Action action) {
    super(RunListener.SILENT);
    this.action = action;
  }

  @Override
  protected void periodEnded(PeriodProgress progress) {
    action.accept(progress.phase(), progress.stats(), progress.periodSeconds());
  }
}
