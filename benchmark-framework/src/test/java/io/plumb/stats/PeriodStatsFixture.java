package io.plumb.stats;

import org.HdrHistogram.Histogram;

/**
 * A {@link PeriodStats} for a test that cares about a few of its counts and latencies: every figure
 * it does not set is zero, every histogram it does not set is empty.
 */
public final class PeriodStatsFixture {
  private long sent;
  private long acknowledged;
  private long failed;
  private long received;
  private long duplicates;
  private Histogram publishLatency = Histograms.forMerging();
  private Histogram endToEnd = Histograms.forMerging();

  private PeriodStatsFixture() {}

  public static PeriodStatsFixture period() {
    return new PeriodStatsFixture();
  }

  public PeriodStatsFixture sent(long messages) {
    this.sent = messages;
    return this;
  }

  public PeriodStatsFixture acknowledged(long messages) {
    this.acknowledged = messages;
    return this;
  }

  public PeriodStatsFixture failed(long messages) {
    this.failed = messages;
    return this;
  }

  public PeriodStatsFixture received(long messages) {
    this.received = messages;
    return this;
  }

  public PeriodStatsFixture duplicates(long messages) {
    this.duplicates = messages;
    return this;
  }

  public PeriodStatsFixture publishLatency(Histogram histogram) {
    this.publishLatency = histogram;
    return this;
  }

  public PeriodStatsFixture endToEnd(Histogram histogram) {
    this.endToEnd = histogram;
    return this;
  }

  public PeriodStats build() {
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
