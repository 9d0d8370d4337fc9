package io.plumb.stats;

/**
 * What a worker's subscriptions received during the current period: counts and one end-to-end
 * histogram for all of them. A period's figures are summed over subscriptions anyway, and a latency
 * histogram costs about 200 KB, so one shared by every subscription keeps a worker with a million
 * subscriptions in a few hundred MB instead of hundreds of GB.
 *
 * <p>Not thread-safe: only the {@link StatsCollector}'s thread touches it.
 */
final class ReceivePeriod {
  private final RecordingHistogram endToEnd = new RecordingHistogram();
  private ReceiveCounts counts = new ReceiveCounts();

  void delivered(int length, long latency) {
    ReceiveCounts period = counts;
    period.received++;
    period.bytes += length;
    if (latency < 0) {
      // Counted, not dropped: a negative value means the clocks disagree by more than the latency.
      period.negative++;
      latency = 0;
    }
    endToEnd.record(latency);
  }

  void duplicate() {
    counts.duplicates++;
  }

  void outOfOrder() {
    counts.outOfOrder++;
  }

  void foreign() {
    counts.foreign++;
  }

  void error() {
    counts.errors++;
  }

  /** Adds everything recorded since the last call to {@code into} and starts a new period. */
  void takePeriod(PeriodStats.Builder into) {
    into.addReceiveCounts(counts);
    counts = new ReceiveCounts();
    into.addEndToEnd(endToEnd.histogram());
    endToEnd.reset();
  }
}
