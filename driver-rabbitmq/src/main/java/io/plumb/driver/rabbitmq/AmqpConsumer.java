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
 * One member of a subscription: its own connection and channel, consuming the partition queues that
 * its {@link SubscriptionGroup} assigns to it, with manual acknowledgements.
 *
 * <p>The client dispatches every delivery of a channel on one thread, in delivery-tag order, so an
 * acknowledgement with {@code multiple=true} covers only deliveries already handed to the listener,
 * and the ack counters below need no synchronization.
 */
final class AmqpConsumer implements BenchmarkConsumer {

  private static final long CANCEL_TIMEOUT_SECONDS = 30;

  private final Connection connection;
  private final Channel channel;
  private final MessageListener listener;
  private final QueueType queueType;
  private final int ackBatchSize;
  private final SubscriptionGroup group;
  private final Map<Integer, PartitionConsumer> byPartition = new HashMap<>();

  // Touched only on the channel's dispatch thread.
  private long lastDeliveryTag;
  private int unacked;

  AmqpConsumer(
      Connection connection,
      MessageListener listener,
      RabbitMqConfig config,
      SubscriptionGroup group)
      throws IOException {
    this.connection = connection;
    this.channel = connection.createChannel();
    this.listener = listener;
    this.queueType = config.queueType();
    this.ackBatchSize = config.ackBatchSize();
    this.group = group;
    // Per consumer (global=false): each partition queue gets its own window.
    channel.basicQos(config.prefetchCount(), false);
  }

  /**
   * Starts consuming a partition queue. {@code streamOffset} is where a stream queue resumes (the
   * offset after the last one a previous owner delivered), or -1 to read from the first message.
   */
  synchronized void acquire(int partition, String queue, long streamOffset) throws IOException {
    PartitionConsumer consumer = new PartitionConsumer(partition, streamOffset - 1);
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
   * Stops consuming a partition queue and waits until every delivery of it has reached the listener
   * and been acknowledged. Returns the last stream offset delivered (-1 if none), so the next owner
   * of a stream queue resumes right after it.
   */
  synchronized long release(int partition) throws Exception {
    PartitionConsumer consumer = byPartition.remove(partition);
    if (consumer == null) {
      return -1;
    }
    if (channel.isOpen()) {
      channel.basicCancel(consumer.tag);
      consumer.cancelled.get(CANCEL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
    return consumer.lastStreamOffset;
  }

  private void delivered(long deliveryTag) throws IOException {
    lastDeliveryTag = deliveryTag;
    if (++unacked >= ackBatchSize) {
      channel.basicAck(deliveryTag, true);
      unacked = 0;
    }
  }

  /** Acknowledges deliveries still counted in the current batch; on the dispatch thread. */
  private void flushAcks() throws IOException {
    if (unacked > 0 && channel.isOpen()) {
      channel.basicAck(lastDeliveryTag, true);
      unacked = 0;
    }
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

  /** Consumes one partition queue on the shared channel. */
  private final class PartitionConsumer extends DefaultConsumer {
    private final int partition;
    private final CompletableFuture<Void> cancelled = new CompletableFuture<>();
    private long lastStreamOffset;
    private volatile String tag;

    PartitionConsumer(int partition, long lastStreamOffset) {
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
      try {
        delivered(envelope.getDeliveryTag());
      } catch (IOException | RuntimeException e) {
        listener.failed(e);
      }
    }

    @Override
    public void handleCancelOk(String consumerTag) {
      // Runs on the dispatch thread after every earlier delivery of this channel.
      try {
        flushAcks();
      } catch (IOException | RuntimeException e) {
        listener.failed(e);
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
