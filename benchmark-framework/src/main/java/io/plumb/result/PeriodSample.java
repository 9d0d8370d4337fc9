package io.plumb.result;

import io.plumb.stats.Histograms;
import io.plumb.stats.PeriodStats;

/**
 * One measured period: what happened, how long it lasted, and the backlog at its end.
 *
 * <p>The coordinator keeps every measured period for the timelines and the fault figures, and a
 * period's four histograms take some 800 KB: a 24-hour run's 8,640 periods of 10 s would hold 6.9
 * GB, a one-hour run under faults (1 s periods) 2.9 GB. So a sample also keeps its histograms in
 * HdrHistogram's own lossless encoding (a few KB each), and once the coordinator has {@linkplain
 * #release released} the figures as they came, every read decodes them again, count for count.
 */
public final class PeriodSample {
  private final double seconds;
  private final long backlog;
  private final PeriodStats counts;
  private final byte[] publish;
  private final byte[] service;
  private final byte[] sendDelay;
  private final byte[] endToEnd;
  private final long heldBytes;
  private volatile PeriodStats held;

  public PeriodSample(PeriodStats stats, double seconds, long backlog) {
    this.seconds = seconds;
    this.backlog = backlog;
    this.publish = Histograms.toBytes(stats.publishLatency());
    this.service = Histograms.toBytes(stats.serviceTime());
    this.sendDelay = Histograms.toBytes(stats.sendDelay());
    this.endToEnd = Histograms.toBytes(stats.endToEndLatency());
    this.counts = stats.withHistograms(null, null, null, null);
    this.heldBytes =
        stats.publishLatency().getEstimatedFootprintInBytes()
            + stats.serviceTime().getEstimatedFootprintInBytes()
            + stats.sendDelay().getEstimatedFootprintInBytes()
            + stats.endToEndLatency().getEstimatedFootprintInBytes();
    this.held = stats;
  }

  /**
   * What happened in the period, histograms and all: the figures as they came, or after {@link
   * #release} a new decoding of them on every call (a reader calls it once a period and pass).
   */
  public PeriodStats stats() {
    PeriodStats figures = held;
    if (figures != null) {
      return figures;
    }
    return counts.withHistograms(
        Histograms.fromBytes(publish),
        Histograms.fromBytes(service),
        Histograms.fromBytes(sendDelay),
        Histograms.fromBytes(endToEnd));
  }

  /**
   * The period's counts and times alone, never decoded: its four histograms are null (read those
   * from {@link #stats}). What a reader of counts calls, so a released period is not decoded just
   * for them.
   */
  public PeriodStats counts() {
    return counts;
  }

  public double seconds() {
    return seconds;
  }

  public long backlog() {
    return backlog;
  }

  /** Lets go of the figures as they came; from now on the sample keeps only the encoded ones. */
  public void release() {
    held = null;
  }

  /** Heap the figures as they came take while held: what {@link #release} frees. */
  public long heldBytes() {
    return held == null ? 0 : heldBytes;
  }

  /** Bytes the period keeps once released: the encoded histograms. */
  long encodedBytes() {
    return (long) publish.length + service.length + sendDelay.length + endToEnd.length;
  }
}
