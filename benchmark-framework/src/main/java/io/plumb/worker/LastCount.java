package io.plumb.worker;

import io.plumb.stats.PeriodStats;
import io.plumb.worker.WorkerSpecs.Totals;

/**
 * The last read of a run: what was recorded since the previous period and the sequence sets, taken
 * together so that counts and the loss judged from the sets describe the same instant.
 *
 * @param period everything recorded since the previous {@link Worker#takePeriod}
 * @param totals the acknowledged, failed and received sequence sets at the end of {@code period}
 */
public record LastCount(PeriodStats period, Totals totals) {}
