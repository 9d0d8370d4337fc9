package io.plumb.stats;

import java.util.Arrays;

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
  private long[] ackedByProducer;

  /**
   * @param producers how many producers report here; they are numbered from 0 (local index)
   */
  public PublishRecorder(int producers) {
    this.ackedByProducer = new long[producers];
  }

  void expectProducers(int producers) {
    if (producers > ackedByProducer.length) {
      ackedByProducer = Arrays.copyOf(ackedByProducer, producers);
    }
  }

  public void acknowledged(int producer, long intended, long actual, long completed) {
    acked++;
    ackedByProducer[producer]++;
    publish.record(Math.max(0, completed - intended));
    if (actual == UNKNOWN) {
      untimed++;
      return;
    }
    service.record(Math.max(0, completed - actual));
    sendDelay.record(Math.max(0, actual - intended));
  }

  public void failed() {
    failed++;
  }

  /** Acknowledged messages over the whole run, by local producer index. */
  public long ackedBy(int producer) {
    return ackedByProducer[producer];
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
