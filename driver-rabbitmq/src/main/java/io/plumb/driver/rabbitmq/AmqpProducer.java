package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.MessageProperties;
import com.rabbitmq.client.ShutdownSignalException;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Publishes to one topic exchange over its own connection and channel, routing each message to a
 * partition's routing key. With publisher confirms, a send completes when the broker confirms (or
 * nacks) its publish sequence number; without, when basicPublish has handed the frame to the
 * socket.
 */
final class AmqpProducer implements BenchmarkProducer {

  /** What to tell when a publish sequence number is confirmed. */
  private record Pending(long token, SendListener listener) {}

  private final Connection connection;
  private final Channel channel;
  private final String exchange;
  private final String[] routingKeys;
  private final Partitioner partitioner;
  private final AMQP.BasicProperties properties;
  private final boolean confirms;
  // Sorted by sequence number so a confirm with multiple=true completes a head range in one step.
  private final ConcurrentSkipListMap<Long, Pending> pending = new ConcurrentSkipListMap<>();

  AmqpProducer(Connection connection, String exchange, int partitions, RabbitMqConfig config)
      throws IOException {
    this.connection = connection;
    this.channel = connection.createChannel();
    this.exchange = exchange;
    this.routingKeys = RoutingKeys.forPartitions(partitions);
    this.partitioner = new Partitioner(partitions);
    this.properties =
        config.messagePersistence()
            ? MessageProperties.MINIMAL_PERSISTENT_BASIC
            : MessageProperties.MINIMAL_BASIC;
    this.confirms = config.publisherConfirms();
    if (confirms) {
      channel.confirmSelect();
      channel.addConfirmListener(
          new ConfirmListener() {
            @Override
            public void handleAck(long seq, boolean multiple) {
              complete(seq, multiple, null);
            }

            @Override
            public void handleNack(long seq, boolean multiple) {
              complete(seq, multiple, new IOException("broker nacked the message"));
            }
          });
      channel.addShutdownListener(this::failAll);
    }
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    String routingKey = routingKeys[partitioner.partitionFor(key)];
    if (!confirms) {
      try {
        channel.basicPublish(exchange, routingKey, properties, payload);
      } catch (Exception | Error e) {
        listener.sendCompleted(token, e);
        return;
      }
      listener.sendCompleted(token, null);
      return;
    }
    // Reading the next sequence number and publishing must not interleave with another sender
    // on this channel; the client takes its own channel lock inside basicPublish anyway, so this
    // uncontended monitor adds next to nothing. basicPublish writes the payload into the frame
    // before returning, so the array is not kept.
    synchronized (this) {
      long seq = channel.getNextPublishSeqNo();
      pending.put(seq, new Pending(token, listener));
      try {
        channel.basicPublish(exchange, routingKey, properties, payload);
      } catch (Exception | Error e) {
        if (pending.remove(seq) != null) {
          listener.sendCompleted(token, e);
        }
      }
    }
  }

  private void complete(long seq, boolean multiple, Throwable failure) {
    if (multiple) {
      ConcurrentNavigableMap<Long, Pending> head = pending.headMap(seq, true);
      for (Map.Entry<Long, Pending> e : head.entrySet()) {
        // remove() decides the one caller that completes each message (a shutdown may race).
        if (pending.remove(e.getKey()) != null) {
          e.getValue().listener().sendCompleted(e.getValue().token(), failure);
        }
      }
    } else {
      Pending p = pending.remove(seq);
      if (p != null) {
        p.listener().sendCompleted(p.token(), failure);
      }
    }
  }

  private void failAll(ShutdownSignalException cause) {
    if (!pending.isEmpty()) {
      complete(Long.MAX_VALUE, true, cause);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (confirms && channel.isOpen()) {
        // Let confirms for what was already sent arrive, so their sends complete as acked.
        channel.waitForConfirms(10_000);
      }
    } catch (Exception e) {
      // whatever is still pending fails below
    } finally {
      if (!pending.isEmpty()) {
        complete(
            Long.MAX_VALUE, true, new IOException("producer closed before the broker confirmed"));
      }
      if (connection.isOpen()) {
        connection.close();
      }
    }
  }
}
