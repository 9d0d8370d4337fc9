package io.plumb.stats;

import org.HdrHistogram.Histogram;

/**
 * Records send completions of a group of producers: publish latency (from the intended send time,
 * the headline), service time (from the actual send) and send delay (actual minus intended).
 *
 * <p>Completions arrive on driver threads, possibly several at once, so recording takes this
 * object's monitor: one uncontended lock per message, cheaper than the two atomic operations per
 * histogram a concurrent histogram would cost for three histograms. {@link #takePeriod} swaps the
 * histograms under the same lock in constant time.
 */
public final class PublishRecorder {
  /** Marks an actual send time that is no longer known (see {@code InFlightTimes}). */
  public static final long UNKNOWN = Long.MIN_VALUE;

  private Histogram publish = Histograms.forRecording();
  private Histogram service = Histograms.forRecording();
  private Histogram sendDelay = Histograms.forRecording();
  private Histogram sparePublish = Histograms.forRecording();
  private Histogram spareService = Histograms.forRecording();
  private Histogram spareSendDelay = Histograms.forRecording();
  private long acked;
  private long failed;
  private long untimed;
  private long[] ackedByProducer;
  private String firstFailure;

  /**
   * @param producers how many producers report here; they are numbered from 0 (local index)
   */
  public PublishRecorder(int producers) {
    this.ackedByProducer = new long[producers];
  }

  public synchronized void acknowledged(int producer, long intended, long actual, long completed) {
    acked++;
    ackedByProducer[producer]++;
    publish.recordValue(Math.max(0, completed - intended));
    if (actual == UNKNOWN) {
      untimed++;
      return;
    }
    service.recordValue(Math.max(0, completed - actual));
    sendDelay.recordValue(Math.max(0, actual - intended));
  }

  public synchronized void failed(Throwable failure) {
    failed++;
    if (firstFailure == null) {
      firstFailure = String.valueOf(failure);
    }
  }

  /** Acknowledged messages over the whole run, by local producer index. */
  public synchronized long ackedBy(int producer) {
    return ackedByProducer[producer];
  }

  /** The first send failure seen, or null. */
  public synchronized String firstFailure() {
    return firstFailure;
  }

  /**
   * Adds everything recorded since the last call to {@code into} and starts a new period. Called by
   * one thread at a time (the worker's stats collector).
   */
  public void takePeriod(PeriodStats.Builder into) {
    Histogram periodPublish;
    Histogram periodService;
    Histogram periodSendDelay;
    synchronized (this) {
      periodPublish = publish;
      periodService = service;
      periodSendDelay = sendDelay;
      publish = sparePublish;
      service = spareService;
      sendDelay = spareSendDelay;
      into.addPublishCounts(acked, failed, untimed);
      acked = 0;
      failed = 0;
      untimed = 0;
    }
    // Outside the lock: merging and clearing take microseconds we do not want producers to wait on.
    into.addPublishHistograms(periodPublish, periodService, periodSendDelay);
    periodPublish.reset();
    periodService.reset();
    periodSendDelay.reset();
    synchronized (this) {
      sparePublish = periodPublish;
      spareService = periodService;
      spareSendDelay = periodSendDelay;
    }
  }
}
