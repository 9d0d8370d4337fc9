package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One member of a subscription: its own connection, consuming the partition queues that its {@link
 * SubscriptionGroup} assigns to it with manual acknowledgements, each queue on a channel of its
 * own.
 *
 * <p>A channel per queue rather than one for all: the broker runs each channel as one process that
 * forwards every delivery and acknowledgement of that channel, and for stream queues also reads the
 * log. One channel for all partitions would serialise a whole consumer's traffic through one broker
 * process (one core), a limit of the client's layout rather than of the broker. The client
 * dispatches each channel's deliveries on one thread at a time, in delivery-tag order, so each
 * channel's acknowledgement with {@code multiple=true} covers only deliveries already handed to the
 * listener, and its counters need no synchronization; different channels may deliver concurrently
 * (the listener is thread-safe).
 */
final class AmqpConsumer implements BenchmarkConsumer {

  private static final long CANCEL_TIMEOUT_SECONDS = 30;

  private final Connection connection;
  private final MessageListener listener;
  private final QueueType queueType;
  private final int prefetchCount;
  private final int ackBatchSize;
  private final SubscriptionGroup group;
  private final Map<Integer, PartitionConsumer> byPartition = new HashMap<>();

  AmqpConsumer(
      Connection connection,
      MessageListener listener,
      RabbitMqConfig config,
      SubscriptionGroup group) {
    this.connection = connection;
    this.listener = listener;
    this.queueType = config.queueType();
    this.prefetchCount = config.prefetchCount();
    this.ackBatchSize = config.ackBatchSize();
    this.group = group;
  }

  /**
   * Starts consuming a partition queue on a new channel. {@code streamOffset} is where a stream
   * queue resumes (the offset after the last one a previous owner delivered), or -1 to read from
   * the first message.
   */
  synchronized void acquire(int partition, String queue, long streamOffset) throws IOException {
    Channel channel = connection.createChannel();
    // Per consumer (global=false): the queue's own window of unacknowledged deliveries.
    channel.basicQos(prefetchCount, false);
    PartitionConsumer consumer = new PartitionConsumer(channel, partition, streamOffset - 1);
    Map<String, Object> arguments = Map.of();
    if (queueType == QueueType.STREAM) {
      arguments = Map.of("x-stream-offset", streamOffset < 0 ? (Object) "first" : streamOffset);
    }
    // Keep the tag basicConsume returns: DefaultConsumer learns it only when handleConsumeOk is
    // dispatched, which may come after a quick reassignment has already cancelled this consumer.
    consumer.tag = channel.basicConsume(queue, false, "", false, false, arguments, consumer);
    byPartition.put(partition, consumer);
  }

  /**
   * Stops consuming a partition queue, waits until every delivery of it has reached the listener
   * and been acknowledged, and closes its channel. Returns the last stream offset delivered (-1 if
   * none), so the next owner of a stream queue resumes right after it.
   */
  synchronized long release(int partition) throws Exception {
    PartitionConsumer consumer = byPartition.remove(partition);
    if (consumer == null) {
      return -1;
    }
    Channel channel = consumer.getChannel();
    if (channel.isOpen()) {
      channel.basicCancel(consumer.tag);
      consumer.cancelled.get(CANCEL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      channel.close();
    }
    return consumer.lastStreamOffset;
  }

  @Override
  public void close() throws Exception {
    try {
      // Hands this member's queues to the remaining members; each release flushes acks, so
      // nothing this consumer delivered is requeued and delivered twice.
      group.leave(this);
    } finally {
      if (connection.isOpen()) {
        connection.close();
      }
    }
  }

  /** Consumes one partition queue on its own channel. */
  private final class PartitionConsumer extends DefaultConsumer {
    private final int partition;
    private final CompletableFuture<Void> cancelled = new CompletableFuture<>();
    private long lastStreamOffset;
    private volatile String tag;
    // Touched only on this channel's dispatch thread.
    private long lastDeliveryTag;
    private int unacked;

    PartitionConsumer(Channel channel, int partition, long lastStreamOffset) {
      super(channel);
      this.partition = partition;
      this.lastStreamOffset = lastStreamOffset;
    }

    @Override
    public void handleDelivery(
        String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
      listener.received(body, partition);
      if (queueType == QueueType.STREAM) {
        Object offset =
            properties.getHeaders() == null ? null : properties.getHeaders().get("x-stream-offset");
        if (offset instanceof Number n) {
          lastStreamOffset = n.longValue();
        }
      }
      lastDeliveryTag = envelope.getDeliveryTag();
      if (++unacked >= ackBatchSize) {
        acknowledge();
      }
    }

    /** Acknowledges every delivery up to the last one; on the dispatch thread. */
    private void acknowledge() {
      try {
        getChannel().basicAck(lastDeliveryTag, true);
        unacked = 0;
      } catch (IOException | RuntimeException e) {
        listener.failed(e);
      }
    }

    @Override
    public void handleCancelOk(String consumerTag) {
      // Runs on the dispatch thread after every earlier delivery of this channel.
      if (unacked > 0 && getChannel().isOpen()) {
        acknowledge();
      }
      cancelled.complete(null);
    }

    @Override
    public void handleCancel(String consumerTag) {
      // The broker cancelled us (queue deleted): not an error while the run is being torn down.
      cancelled.complete(null);
    }

    @Override
    public void handleShutdownSignal(
        String consumerTag, com.rabbitmq.client.ShutdownSignalException sig) {
      if (!sig.isInitiatedByApplication()) {
        listener.failed(sig);
      }
      cancelled.complete(null);
    }
  }
}
