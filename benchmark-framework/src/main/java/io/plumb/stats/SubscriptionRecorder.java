package io.plumb.stats;

import io.plumb.message.MessageHeader;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Records what one subscription receives: end-to-end latency (receive time minus the intended send
 * time carried in the message), and per-producer sequence tracking for duplicates and ordering.
 *
 * <p>All consumers of a subscription share one recorder, so a message delivered twice to two
 * different consumers (after a rebalance, say) is still caught as a duplicate. Thread-safe.
 */
public final class SubscriptionRecorder {
  private final String topic;
  private final String subscription;
  private final int runId;
  private final long clockCorrectionNanos;

  private Histogram endToEnd = Histograms.forRecording();
  private Histogram spareEndToEnd = Histograms.forRecording();
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
  private String firstError;

  /**
   * @param clockCorrectionNanos added to receive times to bring them onto the producers' clocks
   *     (zero when producers and consumers share a clock)
   */
  public SubscriptionRecorder(
      String topic, String subscription, int runId, long clockCorrectionNanos) {
    this.topic = topic;
    this.subscription = subscription;
    this.runId = runId;
    this.clockCorrectionNanos = clockCorrectionNanos;
  }

  public String topic() {
    return topic;
  }

  public String subscription() {
    return subscription;
  }

  /**
   * Records one delivery; {@code receivedAt} is the consumer's clock when the driver handed it
   * over.
   */
  public synchronized void received(byte[] payload, int partition, long receivedAt) {
    if (!MessageHeader.isFromRun(payload, runId)) {
      foreign++;
      return;
    }
    if (MessageHeader.kind(payload) == MessageHeader.KIND_PROBE) {
      probes++;
      return;
    }
    int producer = MessageHeader.producerId(payload);
    SequenceTracker tracker = tracker(producer);
    switch (tracker.record(MessageHeader.sequence(payload), partition)) {
      case DUPLICATE -> duplicates++;
      case FIRST_OUT_OF_ORDER -> {
        outOfOrder++;
        totalDistinct++;
      }
      case FIRST_IN_ORDER -> totalDistinct++;
    }
    received++;
    receivedBytes += payload.length;
    long latency = receivedAt + clockCorrectionNanos - MessageHeader.intendedSendTime(payload);
    if (latency < 0) {
      // Counted, not dropped: a negative value means the clocks disagree by more than the latency.
      negative++;
      latency = 0;
    }
    endToEnd.recordValue(latency);
  }

  public synchronized void failed(Throwable error) {
    errors++;
    if (firstError == null) {
      firstError = String.valueOf(error);
    }
  }

  /** The first consumer error seen, or null. */
  public synchronized String firstError() {
    return firstError;
  }

  /** Distinct messages received from {@code producer} over the whole run. */
  public synchronized long distinctFrom(int producer) {
    return producer < trackers.length && trackers[producer] != null
        ? trackers[producer].distinct()
        : 0;
  }

  /** How many readiness probes arrived. */
  public synchronized long probes() {
    return probes;
  }

  /** Distinct load messages received over the whole run. */
  public synchronized long distinctReceived() {
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

  /** Adds everything recorded since the last call to {@code into}. One caller at a time. */
  public void takePeriod(PeriodStats.Builder into) {
    Histogram period;
    synchronized (this) {
      period = endToEnd;
      endToEnd = spareEndToEnd;
      into.addReceiveCounts(
          received, receivedBytes, duplicates, outOfOrder, negative, foreign, errors);
      received = 0;
      receivedBytes = 0;
      duplicates = 0;
      outOfOrder = 0;
      negative = 0;
      foreign = 0;
      errors = 0;
    }
    into.addEndToEnd(period);
    period.reset();
    synchronized (this) {
      spareEndToEnd = period;
    }
  }
}
