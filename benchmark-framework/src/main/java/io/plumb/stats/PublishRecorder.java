package io.plumb.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Records the send completions of a worker's producers: publish latency (from the intended send
 * time, the headline), service time (from the actual send) and send delay (actual minus intended).
 *
 * <p>Not thread-safe: only the {@link StatsCollector}'s thread touches it.
 */
public final class PublishRecorder {
  /** Marks an actual send time that is no longer known (see {@code InFlightTimes}). */
  public static final long UNKNOWN = Long.MIN_VALUE;

  private final RecordingHistogram publish = new RecordingHistogram();
  private final RecordingHistogram service = new RecordingHistogram();
  private final RecordingHistogram sendDelay = new RecordingHistogram();
  private long acked;
  private long failed;
  private long untimed;
  private SequenceTracker[] ackedSequences;
  private SequenceTracker[] failedSequences;
  private long[] highestSequence;
  private PublishTimeline timeline;
  private final List<String> producerTopics = new ArrayList<>();
  private int[] producerIds = new int[0];

  /**
   * @param producers how many producers report here; they are numbered from 0 (local index)
   */
  public PublishRecorder(int producers) {
    this.ackedSequences = new SequenceTracker[0];
    this.failedSequences = new SequenceTracker[0];
    this.highestSequence = new long[0];
    expectProducers(producers);
  }

  void expectProducers(int producers) {
    if (producers > ackedSequences.length) {
      int old = ackedSequences.length;
      highestSequence = Arrays.copyOf(highestSequence, producers);
      ackedSequences = Arrays.copyOf(ackedSequences, producers);
      failedSequences = Arrays.copyOf(failedSequences, producers);
      for (int i = old; i < producers; i++) {
        ackedSequences[i] = new SequenceTracker();
        failedSequences[i] = new SequenceTracker();
      }
    }
  }

  /** Keeps a {@link PublishTimeline} of every send from now on (for runs with a fault plan). */
  void keepTimeline(long stallNanos) {
    timeline = new PublishTimeline(stallNanos);
    timeline.outages().nameProducers(0, producerTopics, producerIds);
  }

  /** The timeline so far; empty when none is kept. */
  public PublishTimeline.Snapshot timeline() {
    return timeline == null ? PublishTimeline.Snapshot.EMPTY : timeline.snapshot();
  }

  /** Names producers' topics and ids from local index {@code first} on, for the timeline. */
  void nameProducers(int first, List<String> topics, int[] ids) {
    while (producerTopics.size() < first + topics.size()) {
      producerTopics.add("topic");
    }
    producerIds = Arrays.copyOf(producerIds, Math.max(producerIds.length, first + ids.length));
    for (int i = 0; i < topics.size(); i++) {
      producerTopics.set(first + i, topics.get(i));
      producerIds[first + i] = ids[i];
    }
    if (timeline != null) {
      timeline.outages().nameProducers(first, topics, ids);
    }
  }

  /**
   * @param sequenceLow the low 32 bits of the sequence number (see {@link EventSink})
   * @param partition the partition the driver named, or -1
   */
  public void acknowledged(
      int producer, int sequenceLow, int partition, long intended, long actual, long completed) {
    acked++;
    ackedSequences[producer].add(extend(producer, sequenceLow));
    if (timeline != null) {
      timeline.acknowledged(intended, completed);
      timeline.outages().acknowledged(producer, partition, intended, actual, completed);
    }
    publish.record(Math.max(0, completed - intended));
    if (actual == UNKNOWN) {
      untimed++;
      return;
    }
    service.record(Math.max(0, completed - actual));
    sendDelay.record(Math.max(0, actual - intended));
  }

  public void failed(
      int producer, int sequenceLow, int partition, long intended, long actual, long failedAt) {
    failed++;
    failedSequences[producer].add(extend(producer, sequenceLow));
    if (timeline != null) {
      timeline.failed(intended);
      timeline.outages().failed(producer, partition, intended, actual, failedAt);
    }
  }

  /** Acknowledged messages over the whole run, by local producer index. */
  public long ackedBy(int producer) {
    return ackedSequences[producer].distinct();
  }

  /** The sequence numbers the broker acknowledged, by local producer index. */
  public SequenceRanges ackedSequences(int producer) {
    return ackedSequences[producer].received();
  }

  /** The sequence numbers whose send failed, by local producer index. */
  public SequenceRanges failedSequences(int producer) {
    return failedSequences[producer].received();
  }

  /**
   * The full sequence number from its low 32 bits: the one nearest the highest seen so far, since a
   * producer's completions are never anywhere near 2^31 sends apart.
   */
  private long extend(int producer, int sequenceLow) {
    long highest = highestSequence[producer];
    long candidate = (highest & ~0xFFFF_FFFFL) | (sequenceLow & 0xFFFF_FFFFL);
    if (candidate - highest > (1L << 31)) {
      candidate -= 1L << 32;
    } else if (highest - candidate > (1L << 31)) {
      candidate += 1L << 32;
    }
    if (candidate < 0) {
      candidate += 1L << 32;
    }
    highestSequence[producer] = Math.max(highest, candidate);
    return candidate;
  }

  /** Adds everything recorded since the last call to {@code into} and starts a new period. */
  public void takePeriod(PeriodStats.Builder into) {
    into.addPublishCounts(acked, failed, untimed);
    into.addPublishHistograms(publish.histogram(), service.histogram(), sendDelay.histogram());
    acked = 0;
    failed = 0;
    untimed = 0;
    publish.reset();
    service.reset();
    sendDelay.reset();
  }
}
