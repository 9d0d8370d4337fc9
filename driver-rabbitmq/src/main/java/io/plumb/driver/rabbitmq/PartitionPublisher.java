package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.MessageProperties;
import com.rabbitmq.client.ShutdownSignalException;
import io.plumb.driver.SendListener;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes one partition's messages on a channel of its own. With publisher confirms, a send
 * completes when the broker confirms (or nacks) its publish sequence number on this channel;
 * without, when basicPublish has handed the frame to the socket.
 *
 * <p>Faults: every send completes exactly once, within a bounded time. When the channel goes down
 * (its connection lost, or the broker closed it) every send awaiting a confirm fails at once, since
 * confirms never cross connections; a send while it is down (the client's recovery reconnecting)
 * fails at once, without waiting; and a send the broker leaves unanswered on a live connection
 * fails after {@code confirmTimeoutMs}. A failed send may still have reached the queue.
 *
 * <p>A channel the broker closed while its connection lives (a publish to an exchange that is gone,
 * as a transient exchange is after every node restarted) is not the client's to recover: the next
 * send opens a new channel on the connection and declares the exchange on it again, at most once
 * per {@code recoveryIntervalMs}; sends in between fail at once.
 *
 * <p>With {@code maxUnconfirmed}, at most that many sends await a confirm: a send beyond waits for
 * room up to {@code maxBlockMs}, and fails when none came; from then on sends fail at once until
 * the broker confirms again. Without it the socket is the only bound: a broker that stops reading
 * (its flow control while a queue cannot be reached) holds send() as long as that lasts.
 */
final class PartitionPublisher {

  /** What to tell when a publish sequence number is confirmed. */
  private record Pending(long token, SendListener listener, long publishedAt) {}

  /** Declares on a new channel what its publishes need (the exchange). */
  @FunctionalInterface
  interface ChannelSetup {
    void apply(Channel channel) throws IOException;
  }

  private final Connection connection;
  private final ChannelSetup setup;
  private final long reopenIntervalNanos;
  // Replaced only when the broker closed it; guarded by this object's monitor for the replacing.
  private volatile Channel channel;
  private long reopenNotBefore;
  // This publisher's queue, numbered as consumers number it: every completion names it.
  private final int partition;
  private final String exchange;
  private final String routingKey;
  // Carries no headers: a send with Plumb's header adds the only entry (see AmqpHeader).
  private final AMQP.BasicProperties properties;
  private final boolean confirms;
  private final long confirmTimeoutNanos;
  // Sorted by sequence number so a confirm with multiple=true completes a head range in one step;
  // within one channel's life, also by publish time.
  private final ConcurrentSkipListMap<Long, Pending> pending = new ConcurrentSkipListMap<>();
  // Room for unconfirmed sends (null: unbounded), and whether the broker left it full too long.
  private final Semaphore window;
  private final int windowSize;
  private final long maxBlockMillis;
  private volatile boolean stalled;

  PartitionPublisher(
      Connection connection,
      ChannelSetup setup,
      int partition,
      String exchange,
      String routingKey,
      RabbitMqConfig config)
      throws IOException {
    this.connection = connection;
    this.setup = setup;
    this.reopenIntervalNanos = TimeUnit.MILLISECONDS.toNanos(config.recoveryIntervalMs());
    this.partition = partition;
    this.exchange = exchange;
    this.routingKey = routingKey;
    this.properties =
        config.messagePersistence()
            ? MessageProperties.MINIMAL_PERSISTENT_BASIC
            : MessageProperties.MINIMAL_BASIC;
    this.confirms = config.publisherConfirms();
    this.confirmTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.confirmTimeoutMs());
    this.windowSize = config.maxUnconfirmed();
    this.window = confirms && windowSize > 0 ? new Semaphore(windowSize) : null;
    this.maxBlockMillis = config.maxBlockMs();
    this.channel = open();
  }

  /**
   * A new channel, set up for publishing: the exchange declared and, with confirms, in confirm mode
   * with this publisher's listeners (the client's recovery restores both on a recovered channel).
   */
  private Channel open() throws IOException {
    Channel opened = connection.createChannel();
    try {
      setup.apply(opened);
      if (confirms) {
        listenForConfirms(opened);
      }
    } catch (IOException | RuntimeException e) {
      if (opened.isOpen()) {
        try {
          opened.abort();
        } catch (IOException ignored) {
          // closing a channel that failed its setup
        }
      }
      throw e;
    }
    return opened;
  }

  private void listenForConfirms(Channel opened) throws IOException {
    opened.confirmSelect();
    opened.addConfirmListener(
        new ConfirmListener() {
          @Override
          public void handleAck(long seq, boolean multiple) {
            stalled = false;
            complete(seq, multiple, null);
          }

          @Override
          public void handleNack(long seq, boolean multiple) {
            stalled = false;
            complete(seq, multiple, new IOException("broker nacked the message"));
          }
        });
    // Only while it is the current channel: once replaced, pending holds the new channel's sends.
    opened.addShutdownListener(
        cause -> {
          if (channel == opened) {
            failPending(cause);
          }
        });
  }

  /**
   * The channel to publish on: the current one, or a new one when the broker closed the current one
   * and the connection lives (once per {@code recoveryIntervalMs}). A closed channel is returned as
   * it is, and the publish on it fails at once.
   */
  private Channel channel() {
    Channel current = channel;
    if (current.isOpen()) {
      return current;
    }
    synchronized (this) {
      current = channel;
      ShutdownSignalException reason = current.getCloseReason();
      boolean closedByBroker =
          reason != null && !reason.isHardError() && !reason.isInitiatedByApplication();
      long now = System.nanoTime();
      if (current.isOpen()
          || !closedByBroker
          || !connection.isOpen()
          || now - reopenNotBefore < 0) {
        return current;
      }
      reopenNotBefore = now + reopenIntervalNanos;
      // Confirms never cross channels: what the closed channel left unconfirmed fails now.
      failPending(reason);
      try {
        channel = open();
      } catch (IOException | RuntimeException e) {
        // Still closed; tried again after the interval.
      }
      return channel;
    }
  }

  void publish(byte[] payload, long token, SendListener listener) {
    publishWith(properties, payload, token, listener);
  }

  /**
   * The same with Plumb's header in the message's headers table ({@link AmqpHeader}): the only path
   * that builds properties per message.
   */
  void publish(byte[] header, byte[] payload, long token, SendListener listener) {
    publishWith(AmqpHeader.properties(properties, header), payload, token, listener);
  }

  private void publishWith(
      AMQP.BasicProperties props, byte[] payload, long token, SendListener listener) {
    if (!confirms) {
      try {
        channel().basicPublish(exchange, routingKey, props, payload);
      } catch (Exception | Error e) {
        listener.sendCompleted(token, partition, e);
        return;
      }
      listener.sendCompleted(token, partition, null);
      return;
    }
    if (window != null && !enterWindow()) {
      listener.sendCompleted(
          token,
          partition,
          new IOException(
              windowSize
                  + " sends await the broker's confirm, none came for "
                  + maxBlockMillis
                  + " ms"));
      return;
    }
    // Reading the next sequence number and publishing must not interleave with another sender
    // on this channel; the client takes its own channel lock inside basicPublish anyway, so this
    // uncontended monitor adds next to nothing. basicPublish writes the payload (and the
    // properties, with any header) into the frames before returning, so no array is kept.
    synchronized (this) {
      Channel publishing = channel();
      long seq = publishing.getNextPublishSeqNo();
      pending.put(seq, new Pending(token, listener, System.nanoTime()));
      try {
        publishing.basicPublish(exchange, routingKey, props, payload);
      } catch (Exception | Error e) {
        finish(pending.remove(seq), e);
        return;
      }
      if (publishing.getNextPublishSeqNo() != seq + 1) {
        // The client's recovery replaced the channel between reading the number and publishing:
        // the message went out under another number on the new channel, whose confirm this entry
        // would never match. Its fate is unknown: failed.
        finish(pending.remove(seq), new IOException("channel recovered while publishing"));
      }
    }
  }

  /**
   * Takes room in the window: at once if there is some, else waiting up to maxBlockMs, unless the
   * broker already left it full that long since its last confirm.
   */
  private boolean enterWindow() {
    if (window.tryAcquire()) {
      return true;
    }
    if (stalled) {
      return false;
    }
    try {
      if (window.tryAcquire(maxBlockMillis, TimeUnit.MILLISECONDS)) {
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    stalled = true;
    return false;
  }

  /** Tells the sender of a send this caller removed from pending (null: another caller did). */
  private void finish(Pending p, Throwable failure) {
    if (p == null) {
      return;
    }
    if (window != null) {
      window.release();
    }
    p.listener().sendCompleted(p.token(), partition, failure);
  }

  private void complete(long seq, boolean multiple, Throwable failure) {
    if (multiple) {
      ConcurrentNavigableMap<Long, Pending> head = pending.headMap(seq, true);
      for (Long key : head.keySet()) {
        // remove() decides the one caller that completes each message (a shutdown may race).
        finish(pending.remove(key), failure);
      }
    } else {
      finish(pending.remove(seq), failure);
    }
  }

  /**
   * Fails every send the broker has left unconfirmed for longer than {@code confirmTimeoutMs}; the
   * producer calls it periodically.
   */
  void failExpired() {
    long now = System.nanoTime();
    while (true) {
      Map.Entry<Long, Pending> oldest = pending.firstEntry();
      if (oldest == null || now - oldest.getValue().publishedAt() < confirmTimeoutNanos) {
        return;
      }
      finish(
          pending.remove(oldest.getKey()),
          new IOException(
              "broker did not confirm within "
                  + TimeUnit.NANOSECONDS.toMillis(confirmTimeoutNanos)
                  + " ms"));
    }
  }

  /** Waits for the broker's confirms of everything published so far (no-op without confirms). */
  void awaitConfirms(long timeoutMillis)
      throws IOException, InterruptedException, TimeoutException {
    Channel current = channel;
    if (confirms && current.isOpen()) {
      current.waitForConfirms(timeoutMillis);
    }
  }

  /** Completes every send still awaiting a confirm with {@code failure}. */
  void failPending(Throwable failure) {
    stalled = false;
    if (!pending.isEmpty()) {
      complete(Long.MAX_VALUE, true, failure);
    }
  }
}
