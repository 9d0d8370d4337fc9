package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.Connection;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.io.IOException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Publishes to one topic exchange over its own connection, routing each message to a partition's
 * routing key, on a channel per partition (see {@link PartitionPublisher}).
 *
 * <p>A channel per partition rather than one for all: the broker runs each channel as one process
 * that routes every publish of the channel and, with publisher confirms, tracks its confirms. One
 * channel for all partitions would push the whole producer's traffic through that one process (one
 * core), a limit of the client's layout rather than of the broker. Each partition keeps its order,
 * since all of its messages go through one channel.
 *
 * <p>The connection recovers by itself when lost (the client's automatic recovery); sends that were
 * awaiting a confirm on it fail (see {@link PartitionPublisher}). Each channel declares the
 * exchange (a no-op while it exists): a transient exchange is gone once every node restarted, and
 * the connection's recovery, or the publisher's new channel, declares it again.
 */
final class AmqpProducer implements BenchmarkProducer {

  private static final long CLOSE_CONFIRM_TIMEOUT_NANOS = 10_000_000_000L;

  private final Connection connection;
  private final PartitionPublisher[] publishers;
  private final Partitioner partitioner;
  private final ScheduledFuture<?> expiry;

  AmqpProducer(
      Connection connection,
      String exchange,
      int partitions,
      PartitionPublisher.ChannelSetup declareExchange,
      RabbitMqConfig config,
      ScheduledExecutorService timers)
      throws IOException {
    this.connection = connection;
    String[] routingKeys = RoutingKeys.forPartitions(partitions);
    this.publishers = new PartitionPublisher[partitions];
    for (int p = 0; p < partitions; p++) {
      publishers[p] =
          new PartitionPublisher(connection, declareExchange, p, exchange, routingKeys[p], config);
    }
    this.partitioner = new Partitioner(partitions);
    long period = Math.max(10, Math.min(1000, config.confirmTimeoutMs() / 4));
    this.expiry =
        timers.scheduleWithFixedDelay(
            () -> {
              for (PartitionPublisher publisher : publishers) {
                publisher.failExpired();
              }
            },
            period,
            period,
            TimeUnit.MILLISECONDS);
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    publishers[partitioner.partitionFor(key)].publish(payload, token, listener);
  }

  /** The header travels in the message's headers table as {@value AmqpHeader#NAME}. */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    publishers[partitioner.partitionFor(key)].publish(header, payload, token, listener);
  }

  @Override
  public void close() throws Exception {
    try {
      // Let confirms for what was already sent arrive, so their sends complete as acked; one
      // deadline for all channels.
      long deadline = System.nanoTime() + CLOSE_CONFIRM_TIMEOUT_NANOS;
      for (PartitionPublisher publisher : publishers) {
        long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
        publisher.awaitConfirms(left);
      }
    } catch (Exception e) {
      // whatever is still pending fails below
    } finally {
      expiry.cancel(false);
      for (PartitionPublisher publisher : publishers) {
        publisher.failPending(new IOException("producer closed before the broker confirmed"));
      }
      if (connection.isOpen()) {
        connection.close();
      } else {
        // Lost and still recovering: abort ends the recovery attempts too.
        connection.abort();
      }
    }
  }
}
