package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
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
 *
 * <p>Faults: when the connection is lost, the client's automatic recovery reconnects (to the next
 * node that answers), declares each queue again, and restarts its consumers; the broker requeues
 * what was delivered but not acknowledged, so those messages may arrive twice. When the broker
 * cancels a consumer itself (its queue went away with its node, as a classic queue does) or closes
 * its channel, this consumer declares the queue again on a new channel and consumes from it, every
 * {@code recoveryIntervalMs} until that works, unless the topic is being deleted.
 */
final class AmqpConsumer implements BenchmarkConsumer {

  private static final long CANCEL_TIMEOUT_SECONDS = 30;

  private final Connection connection;
  private final MessageListener listener;
  private final QueueType queueType;
  private final int prefetchCount;
  private final int ackBatchSize;
  private final long resubscribeDelayMillis;
  private final SubscriptionGroup group;
  private final ScheduledExecutorService timers;
  private final Map<Integer, PartitionConsumer> byPartition = new HashMap<>();
  private volatile boolean closed;

  AmqpConsumer(
      Connection connection,
      MessageListener listener,
      RabbitMqConfig config,
      SubscriptionGroup group,
      ScheduledExecutorService timers) {
    this.connection = connection;
    this.listener = listener;
    this.queueType = config.queueType();
    this.prefetchCount = config.prefetchCount();
    this.ackBatchSize = config.ackBatchSize();
    this.resubscribeDelayMillis = config.recoveryIntervalMs();
    this.group = group;
    this.timers = timers;
  }

  /**
   * Declares and binds a partition queue (a no-op while it exists) and starts consuming it on a new
   * channel. {@code streamOffset} is where a stream queue resumes (the offset after the last one a
   * previous owner delivered), or -1 to read from the first message.
   */
  synchronized void acquire(int partition, String queue, long streamOffset) throws IOException {
    Channel channel = connection.createChannel();
    try {
      group.declare(channel, partition);
      // Per consumer (global=false): the queue's own window of unacknowledged deliveries.
      channel.basicQos(prefetchCount, false);
      PartitionConsumer consumer =
          new PartitionConsumer(channel, partition, queue, streamOffset - 1);
      Map<String, Object> arguments = Map.of();
      if (queueType == QueueType.STREAM) {
        arguments = Map.of("x-stream-offset", streamOffset < 0 ? (Object) "first" : streamOffset);
      }
      // Keep the tag basicConsume returns: DefaultConsumer learns it only when handleConsumeOk is
      // dispatched, which may come after a quick reassignment has already cancelled this consumer.
      consumer.tag = channel.basicConsume(queue, false, "", false, false, arguments, consumer);
      byPartition.put(partition, consumer);
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
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
    if (channel.isOpen() && !consumer.cancelled.isDone()) {
      try {
        channel.basicCancel(consumer.tag);
        consumer.cancelled.get(CANCEL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (IOException | RuntimeException e) {
        // The channel went down meanwhile: the broker requeues what was not acknowledged.
      }
    }
    closeQuietly(channel);
    return consumer.lastStreamOffset;
  }

  /**
   * Consumes partition {@code p} again on a new channel after the broker cancelled {@code lost} or
   * closed its channel; tried again later while it fails.
   */
  private void resubscribeLater(int p, PartitionConsumer lost) {
    if (closed || group.deleted()) {
      return;
    }
    try {
      timers.schedule(() -> resubscribe(p, lost), resubscribeDelayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // The driver is closing.
    }
  }

  private synchronized void resubscribe(int p, PartitionConsumer lost) {
    if (closed || group.deleted() || byPartition.get(p) != lost) {
      return;
    }
    if (!connection.isOpen()) {
      // The connection's own recovery runs; try once it is back.
      resubscribeLater(p, lost);
      return;
    }
    byPartition.remove(p);
    closeQuietly(lost.getChannel());
    long resume = lost.lastStreamOffset < 0 ? -1 : lost.lastStreamOffset + 1;
    try {
      acquire(p, lost.queue, resume);
    } catch (IOException | RuntimeException e) {
      byPartition.put(p, lost);
      resubscribeLater(p, lost);
    }
  }

  private static void closeQuietly(Channel channel) {
    try {
      if (channel.isOpen()) {
        channel.close();
      }
    } catch (Exception e) {
      // already closed, or its connection is down
    }
  }

  @Override
  public void close() throws Exception {
    closed = true;
    try {
      // Hands this member's queues to the remaining members; each release flushes acks, so
      // nothing this consumer delivered is requeued and delivered twice.
      group.leave(this);
    } finally {
      if (connection.isOpen()) {
        connection.close();
      } else {
        // Lost and still recovering: abort ends the recovery attempts too.
        connection.abort();
      }
    }
  }

  /** Consumes one partition queue on its own channel. */
  private final class PartitionConsumer extends DefaultConsumer {
    private final int partition;
    private final String queue;
    private final CompletableFuture<Void> cancelled = new CompletableFuture<>();
    private long lastStreamOffset;
    private volatile String tag;
    // Touched only on this channel's dispatch thread.
    private long lastDeliveryTag;
    private int unacked;

    PartitionConsumer(Channel channel, int partition, String queue, long lastStreamOffset) {
      super(channel);
      this.partition = partition;
      this.queue = queue;
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

    /**
     * Acknowledges every delivery up to the last one; on the dispatch thread. On a channel that is
     * down (its connection lost) there is nothing to acknowledge: the broker requeues those
     * deliveries, and the recovered channel numbers its deliveries after them.
     */
    private void acknowledge() {
      if (!getChannel().isOpen()) {
        return;
      }
      try {
        getChannel().basicAck(lastDeliveryTag, true);
        unacked = 0;
      } catch (AlreadyClosedException e) {
        // went down meanwhile: as above
      } catch (IOException | RuntimeException e) {
        listener.failed(e);
      }
    }

    @Override
    public void handleCancelOk(String consumerTag) {
      // Runs on the dispatch thread after every earlier delivery of this channel.
      if (unacked > 0) {
        acknowledge();
      }
      cancelled.complete(null);
    }

    @Override
    public void handleCancel(String consumerTag) {
      // The broker cancelled us: the queue was deleted (the run's teardown) or went down with its
      // node. Acknowledge what was delivered, then consume again unless the topic is going away.
      if (unacked > 0) {
        acknowledge();
      }
      cancelled.complete(null);
      resubscribeLater(partition, this);
    }

    @Override
    public void handleShutdownSignal(String consumerTag, ShutdownSignalException sig) {
      if (sig.isInitiatedByApplication()) {
        cancelled.complete(null);
      } else if (!sig.isHardError()) {
        // The broker closed this channel alone (its connection lives): the client does not
        // recover a channel on its own, so consume again on a new one.
        cancelled.complete(null);
        resubscribeLater(partition, this);
      }
      // A lost connection: the client's automatic recovery reopens the channel and consumes again.
    }
  }
}
