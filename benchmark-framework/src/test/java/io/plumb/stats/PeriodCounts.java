package io.plumb.stats;

import org.HdrHistogram.Histogram;

/**
 * The counts a test sets on a {@link PeriodStats}: every other count is zero, and every histogram
 * it does not name is empty.
 */
public record PeriodCounts(
    long sent, long acknowledged, long failed, long received, long duplicates) {

  /** A period with these counts and no latencies. */
  public PeriodStats withoutLatencies() {
    return withLatencies(Histograms.forMerging(), Histograms.forMerging());
  }

  /** A period with these counts, {@code publishLatency} and {@code endToEnd}. */
  public PeriodStats withLatencies(Histogram publishLatency, Histogram endToEnd) {
    return new PeriodStats(
        sent,
        0,
        acknowledged,
        failed,
        0,
        received,
        0,
        duplicates,
        0,
        0,
        0,
        0,
        0,
        publishLatency,
        Histograms.forMerging(),
        Histograms.forMerging(),
        endToEnd,
        ProducerThreadTimes.NONE);
  }
}
