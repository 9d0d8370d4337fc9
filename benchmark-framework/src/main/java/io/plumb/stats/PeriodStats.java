package io.plumb.stats;

import org.HdrHistogram.Histogram;

/**
 * What happened during one reporting period on one or more workers. Histograms are complete
 * distributions, so periods and workers merge losslessly with {@link #plus}.
 *
 * @param producerBlockedNanos time producer threads spent inside drivers' send() calls (nothing
 *     else: not Plumb's own work per message, not waits for the schedule)
 * @param producerThreads wall, CPU and run-queue time of the producer threads
 */
public record PeriodStats(
    long sent,
    long sentBytes,
    long acknowledged,
    long failed,
    long untimedAcknowledgements,
    long received,
    long receivedBytes,
    long duplicates,
    long outOfOrder,
    long negativeEndToEnd,
    long foreign,
    long consumerErrors,
    long producerBlockedNanos,
    Histogram publishLatency,
    Histogram serviceTime,
    Histogram sendDelay,
    Histogram endToEndLatency,
    ProducerThreadTimes producerThreads) {

  public PeriodStats {
    // A worker from before thread times were measured sends a period without them.
    producerThreads = producerThreads == null ? ProducerThreadTimes.NONE : producerThreads;
  }

  public PeriodStats plus(PeriodStats other) {
    Builder builder = new Builder();
    builder.add(this);
    builder.add(other);
    return builder.finish();
  }

  /**
   * What these counts add to the backlog: each message sent and not failed is due to every one of
   * {@code subscriptionsPerTopic} subscriptions, and each delivery but a duplicate settles one. A
   * failed send never reaches a consumer, so it is no backlog.
   */
  public long backlogAdded(int subscriptionsPerTopic) {
    return backlogAdded(sent, failed, received, duplicates, subscriptionsPerTopic);
  }

  private static long backlogAdded(
      long sent, long failed, long received, long duplicates, int subscriptionsPerTopic) {
    return (sent - failed) * subscriptionsPerTopic - (received - duplicates);
  }

  /** These figures with other histograms in place of the four latency families. */
  public PeriodStats withHistograms(
      Histogram publish, Histogram service, Histogram sendDelay, Histogram endToEnd) {
    return new Builder(publish, service, sendDelay, endToEnd).addCounts(this).finish();
  }

  /** Accumulates recorders' periods; not thread-safe. */
  public static final class Builder {
    private long sent;
    private long sentBytes;
    private long acknowledged;
    private long failed;
    private long untimed;
    private final ReceiveCounts receive = new ReceiveCounts();
    private long producerBlockedNanos;
    private ProducerThreadTimes producerThreads = ProducerThreadTimes.NONE;
    private final Histogram publish;
    private final Histogram service;
    private final Histogram sendDelay;
    private final Histogram endToEnd;

    public Builder() {
      this(
          Histograms.forMerging(),
          Histograms.forMerging(),
          Histograms.forMerging(),
          Histograms.forMerging());
    }

    private Builder(Histogram publish, Histogram service, Histogram sendDelay, Histogram endToEnd) {
      this.publish = publish;
      this.service = service;
      this.sendDelay = sendDelay;
      this.endToEnd = endToEnd;
    }

    public Builder addSent(long messages, long bytes, long blockedNanos) {
      sent += messages;
      sentBytes += bytes;
      producerBlockedNanos += blockedNanos;
      return this;
    }

    public Builder addProducerThreads(ProducerThreadTimes times) {
      producerThreads = producerThreads.plus(times);
      return this;
    }

    void addPublishCounts(long acked, long failed, long untimed) {
      this.acknowledged += acked;
      this.failed += failed;
      this.untimed += untimed;
    }

    void addPublishHistograms(Histogram publish, Histogram service, Histogram sendDelay) {
      this.publish.add(publish);
      this.service.add(service);
      this.sendDelay.add(sendDelay);
    }

    void addReceiveCounts(ReceiveCounts counts) {
      receive.add(counts);
    }

    void addEndToEnd(Histogram histogram) {
      endToEnd.add(histogram);
    }

    public Builder add(PeriodStats stats) {
      addCounts(stats);
      addPublishHistograms(stats.publishLatency, stats.serviceTime, stats.sendDelay);
      addEndToEnd(stats.endToEndLatency);
      return this;
    }

    /** Everything of {@code stats} but its histograms. */
    private Builder addCounts(PeriodStats stats) {
      addSent(stats.sent, stats.sentBytes, stats.producerBlockedNanos);
      addPublishCounts(stats.acknowledged, stats.failed, stats.untimedAcknowledgements);
      addReceiveCounts(ReceiveCounts.of(stats));
      addProducerThreads(stats.producerThreads);
      return this;
    }

    /**
     * {@link PeriodStats#backlogAdded} of the counts so far, read without build(): build() copies
     * the four histograms (some 200 KB each), which the coordinator did every period just to learn
     * the backlog.
     */
    public long backlogAdded(int subscriptionsPerTopic) {
      return PeriodStats.backlogAdded(
          sent, failed, receive.received, receive.duplicates, subscriptionsPerTopic);
    }

    /** The period so far; the builder goes on accumulating (it copies the histograms). */
    public PeriodStats build() {
      return with(publish.copy(), service.copy(), sendDelay.copy(), endToEnd.copy());
    }

    /**
     * An empty builder for the next period, reusing this one's histograms: a worker that builds
     * period after period allocates only the periods it hands out, not a new set of histograms (800
     * KB) each time as well. This builder is not to be used again.
     */
    public Builder next() {
      publish.reset();
      service.reset();
      sendDelay.reset();
      endToEnd.reset();
      return new Builder(publish, service, sendDelay, endToEnd);
    }

    /**
     * The period, handing over the builder's own histograms: the builder must not be used again.
     * For builders made for one period, whose copies were garbage the moment they were made.
     */
    public PeriodStats finish() {
      return with(publish, service, sendDelay, endToEnd);
    }

    private PeriodStats with(
        Histogram publish, Histogram service, Histogram sendDelay, Histogram endToEnd) {
      return new PeriodStats(
          sent,
          sentBytes,
          acknowledged,
          failed,
          untimed,
          receive.received,
          receive.bytes,
          receive.duplicates,
          receive.outOfOrder,
          receive.negative,
          receive.foreign,
          receive.errors,
          producerBlockedNanos,
          publish,
          service,
          sendDelay,
          endToEnd,
          producerThreads);
    }
  }
}
