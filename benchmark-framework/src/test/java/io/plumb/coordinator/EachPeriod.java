package io.plumb.coordinator;

import io.plumb.stats.PeriodStats;

/** A listener that hands each period's phase, figures and length to a test, and nothing else. */
public final class EachPeriod implements RunListener {
  /** What a test does with one period. */
  @FunctionalInterface
  public interface Action {
    void accept(Phase phase, PeriodStats stats, double periodSeconds);
  }

  private final Action action;

  public EachPeriod(Action action) {
    this.action = action;
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
    action.accept(phase, stats, periodSeconds);
  }
}
