package io.plumb.worker;

import io.plumb.stats.PeriodStats;

/**
 * The run's last read ({@link Worker#lastCount}) took the period but not the sequence sets (a
 * remote worker lost at that moment): the loss cannot be judged, but what the period counted is
 * still the run's and is handed over with the failure.
 */
public final class TotalsMissingException extends WorkerException {
  private static final long serialVersionUID = 1L;

  private final transient PeriodStats period;

  public TotalsMissingException(String message, PeriodStats period, Throwable cause) {
    super(message, cause);
    this.period = period;
  }

  /** Everything recorded since the previous period, as {@link LastCount#period} would have been. */
  public PeriodStats period() {
    return period;
  }
}
