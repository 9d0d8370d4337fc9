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
  private long received;
  private long receivedBytes;
  private long duplicates;
  private long outOfOrder;
  private long negative;
  private long foreign;
  private long errors;

  void delivered(int length, long latency) {
    received++;
    receivedBytes += length;
    if (latency < 0) {
      // Counted, not dropped: a negative value means the clocks disagree by more than the latency.
      negative++;
      latency = 0;
    }
    endToEnd.record(latency);
  }

  void duplicate() {
    duplicates++;
  }

  void outOfOrder() {
    outOfOrder++;
  }

  void foreign() {
    foreign++;
  }

  void error() {
    errors++;
  }

  /** Adds everything recorded since the last call to {@code into} and starts a new period. */
  void takePeriod(PeriodStats.Builder into) {
    into.addReceiveCounts(
        received, receivedBytes, duplicates, outOfOrder, negative, foreign, errors);
    into.addEndToEnd(endToEnd.histogram());
    received = 0;
    receivedBytes = 0;
    duplicates = 0;
    outOfOrder = 0;
    negative = 0;
    foreign = 0;
    errors = 0;
    endToEnd.reset();
  }
}
