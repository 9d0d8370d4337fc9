package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.MessageProperties;
import com.rabbitmq.client.ShutdownSignalException;
import io.plumb.driver.SendListener;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeoutException;

/**
 * Publishes one partition's messages on a channel of its own. With publisher confirms, a send
 * completes when the broker confirms (or nacks) its publish sequence number on this channel;
 * without, when basicPublish has handed the frame to the socket.
 */
final class PartitionPublisher {

  /** What to tell when a publish sequence number is confirmed. */
  private record Pending(long token, SendListener listener) {}

  private final Channel channel;
  private final String exchange;
  private final String routingKey;
  private final AMQP.BasicProperties properties;
  private final boolean confirms;
  // Sorted by sequence number so a confirm with multiple=true completes a head range in one step.
  private final ConcurrentSkipListMap<Long, Pending> pending = new ConcurrentSkipListMap<>();

  PartitionPublisher(
      Channel channel, String exchange, String routingKey, boolean persistent, boolean confirms)
      throws IOException {
    this.channel = channel;
    this.exchange = exchange;
    this.routingKey = routingKey;
    this.properties =
        persistent ? MessageProperties.MINIMAL_PERSISTENT_BASIC : MessageProperties.MINIMAL_BASIC;
    this.confirms = confirms;
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

  void publish(byte[] payload, long token, SendListener listener) {
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
    failPending(cause);
  }

  /** Waits for the broker's confirms of everything published so far (no-op without confirms). */
  void awaitConfirms(long timeoutMillis)
      throws IOException, InterruptedException, TimeoutException {
    if (confirms && channel.isOpen()) {
      channel.waitForConfirms(timeoutMillis);
    }
  }

  /** Completes every send still awaiting a confirm with {@code failure}. */
  void failPending(Throwable failure) {
    if (!pending.isEmpty()) {
      complete(Long.MAX_VALUE, true, failure);
    }
  }
}
