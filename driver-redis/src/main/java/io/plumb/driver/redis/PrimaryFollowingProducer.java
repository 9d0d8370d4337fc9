package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import redis.clients.jedis.HostAndPort;

/**
 * What Redis's two producers ({@link PipelinedProducer}, {@link JedisPipelineProducer}) share: both
 * sends go to one method that queues the message for the producer's sender thread, the header as an
 * entry field beside the payload (streams mode only: PUBLISH has no fields); and the producer hears
 * of primary changes until it closes.
 */
abstract class PrimaryFollowingProducer implements BenchmarkProducer {
  private final boolean carriesHeader;
  private volatile Runnable unwatch = () -> {};

  /**
   * @param carriesHeader whether the header can travel apart (the framework calls the send with a
   *     header only when the driver reports that fact, which Pub/Sub mode does not)
   */
  PrimaryFollowingProducer(boolean carriesHeader) {
    this.carriesHeader = carriesHeader;
  }

  @Override
  public final void send(String key, byte[] payload, long token, SendListener listener) {
    enqueue(key, null, payload, token, listener);
  }

  @Override
  public final void send(
      String key, byte[] header, byte[] payload, long token, SendListener listener) {
    if (!carriesHeader) {
      throw new UnsupportedOperationException(CommandEncoder.PUBLISH_HAS_NO_FIELDS);
    }
    enqueue(key, header, payload, token, listener);
  }

  /**
   * Queues the message for the sender, or completes it at once as failed; {@code header} is null
   * for a plain send. The arrays are the caller's: what is kept past the return is a copy.
   */
  abstract void enqueue(
      String key, byte[] header, byte[] payload, long token, SendListener listener);

  /** Sentinel named {@code now} the primary: a connection to another server is given up. */
  abstract void primaryChanged(HostAndPort now);

  /** What close runs first: the endpoint's unsubscription of {@link #primaryChanged}. */
  final void unwatchOnClose(Runnable unwatch) {
    this.unwatch = unwatch;
  }

  @Override
  public final void close() throws InterruptedException {
    unwatch.run();
    stopSender();
  }

  /** Completes or fails what is queued, and stops the sender thread. */
  abstract void stopSender() throws InterruptedException;
}
