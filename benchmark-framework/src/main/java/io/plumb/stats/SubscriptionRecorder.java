package io.plumb.stats;

import java.util.Arrays;

/**
 * Records what one subscription receives: end-to-end latency (receive time minus the intended send
 * time carried in the message), and per-producer sequence tracking for duplicates and ordering.
 *
 * <p>All of a worker's consumers of a subscription report here, so a message delivered twice to two
 * of them (after a rebalance, say) is still caught as a duplicate; for consumers on different
 * workers, the coordinator's merge of what each received ({@link #receivedFrom}) catches it. Not
 * thread-safe: only the {@link StatsCollector}'s thread touches it. Deliveries reported by
 * different threads are merged in the order the collector drains them, which preserves each
 * thread's own order; ordering is judged per partition, and a partition is delivered by one
 * consumer thread at a time.
 */
public final class SubscriptionRecorder {
  private final String topic;
  private final String subscription;
  private final ClockCorrections clockCorrections;

  private final RecordingHistogram endToEnd = new RecordingHistogram();
  private SequenceTracker[] trackers = new SequenceTracker[0];
  private long received;
  private long receivedBytes;
  private long duplicates;
  private long outOfOrder;
  private long negative;
  private long foreign;
  private long errors;
  private long probes;
  private long totalDistinct;

  /**
   * @param clockCorrections added to latencies to bring receive times onto each producer's clock
   *     ({@link ClockCorrections#NONE} when producers and consumers share a clock)
   */
  public SubscriptionRecorder(
      String topic, String subscription, ClockCorrections clockCorrections) {
    this.topic = topic;
    this.subscription = subscription;
    this.clockCorrections = clockCorrections;
  }

  public String topic() {
    return topic;
  }

  public String subscription() {
    return subscription;
  }

  /**
   * Records one delivery of a load message; {@code latency} is the consumer's receive time minus
   * the intended send time in the message, both as the consumer's worker read them.
   */
  public void delivered(int partition, int producer, int length, long sequence, long latency) {
    SequenceTracker tracker = tracker(producer);
    switch (tracker.record(sequence, partition)) {
      case DUPLICATE -> duplicates++;
      case FIRST_OUT_OF_ORDER -> {
        outOfOrder++;
        totalDistinct++;
      }
      case FIRST_IN_ORDER -> totalDistinct++;
    }
    received++;
    receivedBytes += length;
    long corrected = latency + clockCorrections.forProducer(producer);
    if (corrected < 0) {
      // Counted, not dropped: a negative value means the clocks disagree by more than the latency.
      negative++;
      corrected = 0;
    }
    endToEnd.record(corrected);
  }

  /** A message of another run (a reused topic) or without Plumb's header. */
  public void foreign() {
    foreign++;
  }

  /** A readiness probe arrived. */
  public void probe() {
    probes++;
  }

  public void error() {
    errors++;
  }

  /** The sequence numbers received from {@code producer} over the whole run. */
  public SequenceRanges receivedFrom(int producer) {
    return producer < trackers.length && trackers[producer] != null
        ? trackers[producer].received()
        : SequenceRanges.EMPTY;
  }

  /** One more than the highest producer id heard from: the ids {@link #receivedFrom} knows. */
  public int producersSeen() {
    return trackers.length;
  }

  /** How many readiness probes arrived. */
  public long probes() {
    return probes;
  }

  /** Distinct load messages received over the whole run. */
  public long distinctReceived() {
    return totalDistinct;
  }

  private SequenceTracker tracker(int producer) {
    if (producer >= trackers.length) {
      trackers = Arrays.copyOf(trackers, Math.max(producer + 1, trackers.length * 2));
    }
    SequenceTracker tracker = trackers[producer];
    if (tracker == null) {
      tracker = new SequenceTracker();
      trackers[producer] = tracker;
    }
    return tracker;
  }

  /** Adds everything recorded since the last call to {@code into} and starts a new period. */
  public void takePeriod(PeriodStats.Builder into) {
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
