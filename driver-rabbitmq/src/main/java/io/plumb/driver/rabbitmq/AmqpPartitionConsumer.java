package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Consumes one partition queue on its own channel for an {@link AmqpConsumer}: hands each delivery
 * to the listener, acknowledges in batches, notes a stream queue's last offset delivered, and tells
 * its owner when the broker cancelled it or closed its channel, so that the owner consumes the
 * queue again on a new channel.
 */
final class AmqpPartitionConsumer extends DefaultConsumer {
  /** What every partition consumer of one {@link AmqpConsumer} shares. */
  record Settings(MessageListener listener, boolean stream, int ackBatchSize) {}

  private final Settings settings;
  private final Consumer<AmqpPartitionConsumer> lost;
  final int partition;
  final String queue;
  final CompletableFuture<Void> cancelled = new CompletableFuture<>();
  // Written on the dispatch thread; read by the owner once this consumer no longer consumes.
  long lastStreamOffset;
  volatile String tag;
  private boolean cancelAsked;
  // Touched only on this channel's dispatch thread.
  private long lastDeliveryTag;
  private int unacked;

  /**
   * @param lastStreamOffset the stream offset delivered last before this consumer starts, -1 for
   *     none
   * @param lost told, on the dispatch thread, when the broker cancelled this consumer or closed its
   *     channel (for a stream queue, also when the connection was lost): consume the queue again
   */
  AmqpPartitionConsumer(
      Channel channel,
      int partition,
      String queue,
      long lastStreamOffset,
      Settings settings,
      Consumer<AmqpPartitionConsumer> lost) {
    super(channel);
    this.settings = settings;
    this.lost = lost;
    this.partition = partition;
    this.queue = queue;
    this.lastStreamOffset = lastStreamOffset;
  }

  /**
   * Asks the broker to stop delivering; {@link #cancelled} completes once what it sent before has
   * been delivered and acknowledged. Asked once: the channel forgets the tag after the cancel-ok.
   */
  void cancel() {
    if (cancelAsked) {
      return;
    }
    cancelAsked = true;
    try {
      // The client forgets the consumer first, so a connection recovery cannot restart it.
      getChannel().basicCancel(tag);
    } catch (IOException | RuntimeException e) {
      // The channel is down (the broker requeues what was not acknowledged), or the broker
      // cancelled the consumer itself meanwhile: either way it no longer consumes.
      cancelled.complete(null);
    }
  }

  @Override
  public void handleDelivery(
      String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
    Map<String, Object> headers = properties.getHeaders();
    AmqpHeader.deliver(headers, body, partition, settings.listener());
    if (settings.stream()) {
      Object offset = headers == null ? null : headers.get(AmqpConsumer.STREAM_OFFSET);
      if (offset instanceof Number n) {
        lastStreamOffset = n.longValue();
      }
    }
    lastDeliveryTag = envelope.getDeliveryTag();
    if (++unacked >= settings.ackBatchSize()) {
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
      settings.listener().failed(e);
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
    lost.accept(this);
  }

  @Override
  public void handleShutdownSignal(String consumerTag, ShutdownSignalException sig) {
    if (sig.isInitiatedByApplication()) {
      cancelled.complete(null);
    } else if (!sig.isHardError()) {
      // The broker closed this channel alone (its connection lives): the client does not
      // recover a channel on its own, so consume again on a new one.
      cancelled.complete(null);
      lost.accept(this);
    } else if (settings.stream()) {
      // A lost connection, whose recovery does not restart a stream queue's consumer (it would
      // read from the first offset again): consume again after the last offset delivered, once
      // the connection is back.
      cancelled.complete(null);
      lost.accept(this);
    }
    // Any other queue's consumer, on a lost connection: the client's automatic recovery reopens
    // the channel and consumes again.
  }
}
