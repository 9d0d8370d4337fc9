package io.plumb.result;

import io.plumb.stats.Histograms;
import io.plumb.stats.PeriodStats;
import java.lang.ref.SoftReference;
import org.HdrHistogram.Histogram;

/**
 * One measured period: what happened, how long it lasted, and the backlog at its end.
 *
 * <p>The coordinator keeps every measured period for the timelines and the fault figures, and a
 * period's four histograms take some 800 KB: a 24-hour run's 8,640 periods of 10 s would hold 6.9
 * GB, a one-hour run under faults (1 s periods) 2.9 GB. So a sample keeps its histograms encoded
 * (HdrHistogram's own lossless form, a few KB each) and the figures as they came in a soft
 * reference: read again from memory while the heap has room, decoded again, count for count, once
 * the collector has taken them back. The heap never runs out for periods kept.
 */
public final class PeriodSample {
  private final double seconds;
  private final long backlog;
  private final PeriodStats counts;
  private final byte[] publish;
  private final byte[] service;
  private final byte[] sendDelay;
  private final byte[] endToEnd;
  private volatile SoftReference<PeriodStats> stats;

  public PeriodSample(PeriodStats stats, double seconds, long backlog) {
    this.seconds = seconds;
    this.backlog = backlog;
    this.publish = Histograms.toBytes(stats.publishLatency());
    this.service = Histograms.toBytes(stats.serviceTime());
    this.sendDelay = Histograms.toBytes(stats.sendDelay());
    this.endToEnd = Histograms.toBytes(stats.endToEndLatency());
    // The counts without the histograms' arrays; never handed out as they are.
    this.counts = stats.withHistograms(NONE, NONE, NONE, NONE);
    this.stats = new SoftReference<>(stats);
  }

  private static final Histogram NONE = new Histogram(Histograms.SIGNIFICANT_DIGITS);

  /** What happened in the period, histograms and all. */
  public PeriodStats stats() {
    PeriodStats kept = stats.get();
    if (kept == null) {
      kept =
          counts.withHistograms(
              Histograms.fromBytes(publish),
              Histograms.fromBytes(service),
              Histograms.fromBytes(sendDelay),
              Histograms.fromBytes(endToEnd));
      stats = new SoftReference<>(kept);
    }
    return kept;
  }

  public double seconds() {
    return seconds;
  }

  public long backlog() {
    return backlog;
  }

  /** As the garbage collector does when the heap runs short: the next read decodes. For tests. */
  void dropFigures() {
    stats = new SoftReference<>(null);
  }

  /** Bytes the period keeps once its figures are taken back: the encoded histograms. */
  long encodedBytes() {
    return (long) publish.length + service.length + sendDelay.length + endToEnd.length;
  }
}
