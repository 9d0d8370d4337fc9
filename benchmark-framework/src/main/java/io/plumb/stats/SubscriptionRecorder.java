package io.plumb.stats;

/**
 * Records what one subscription receives: end-to-end latency (receive time minus the intended send
 * time carried in the message), per-producer sequence tracking for duplicates, and the count of
 * messages that arrived out of order.
 *
 * <p>All of a worker's consumers of a subscription report here, so a message delivered twice to two
 * of them (after a rebalance, say) is still caught as a duplicate; for consumers on different
 * workers, the coordinator's merge of what each received ({@link #receivedFrom}) catches it. Not
 * thread-safe: only the {@link StatsCollector}'s thread touches it.
 *
 * <p>Order is not judged here: deliveries reported by different threads reach this recorder in the
 * order the collector drains their rings, which is not the order they arrived in (a client that
 * hands one consumer's deliveries to a pool of threads, as RabbitMQ's amqp-client does, would show
 * thousands of false reorderings). Each consumer's listener judges order as messages arrive, per
 * producer and partition, and marks a message that came after a later one; a first delivery so
 * marked counts as out of order. A duplicate counts only as a duplicate.
 */
public final class SubscriptionRecorder {
  private final String topic;
  private final String subscription;
  private final ClockCorrections clockCorrections;
  private final ReceivePeriod period;
  private final ProducerTrackers trackers = new ProducerTrackers();
  private long probes;
  private long totalDistinct;

  /**
   * A recorder with period figures of its own.
   *
   * @param clockCorrections added to latencies to bring receive times onto each producer's clock
   *     ({@link ClockCorrections#NONE} when producers and consumers share a clock)
   */
  public SubscriptionRecorder(
      String topic, String subscription, ClockCorrections clockCorrections) {
    this(topic, subscription, clockCorrections, new ReceivePeriod());
  }

  /** A recorder whose period figures go to {@code period}, shared with the worker's others. */
  SubscriptionRecorder(
      String topic, String subscription, ClockCorrections clockCorrections, ReceivePeriod period) {
    this.topic = topic;
    this.subscription = subscription;
    this.clockCorrections = clockCorrections;
    this.period = period;
  }

  public String topic() {
    return topic;
  }

  public String subscription() {
    return subscription;
  }

  /**
   * Records one delivery of a load message; {@code latency} is the consumer's receive time minus
   * the intended send time in the message, both as the consumer's worker read them; {@code
   * afterLater} says the consumer received it after a later message of the same producer and
   * partition.
   */
  public void delivered(int producer, int length, long sequence, long latency, boolean afterLater) {
    if (trackers.of(producer).add(sequence)) {
      totalDistinct++;
      if (afterLater) {
        period.outOfOrder();
      }
    } else {
      period.duplicate();
    }
    period.delivered(length, latency + clockCorrections.forProducer(producer));
  }

  /** A message of another run (a reused topic) or without Plumb's header. */
  public void foreign() {
    period.foreign();
  }

  /** A readiness probe arrived. */
  public void probe() {
    probes++;
  }

  public void error() {
    period.error();
  }

  /** The sequence numbers received from {@code producer} over the whole run. */
  public SequenceRanges receivedFrom(int producer) {
    SequenceTracker tracker = trackers.find(producer);
    return tracker == null ? SequenceRanges.EMPTY : tracker.received();
  }

  /** The ids of every producer heard from, ascending: the ids {@link #receivedFrom} knows. */
  public int[] producersSeen() {
    return trackers.ids();
  }

  /** How many readiness probes arrived. */
  public long probes() {
    return probes;
  }

  /** Distinct load messages received over the whole run. */
  public long distinctReceived() {
    return totalDistinct;
  }

  /**
   * Adds everything recorded since the last call to {@code into} and starts a new period: the
   * figures of every recorder that shares this one's period.
   */
  public void takePeriod(PeriodStats.Builder into) {
    period.takePeriod(into);
  }
}
