package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Consumer;
import io.nats.client.ErrorListener;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The driver's two connections to the cluster, one for publishing and one for consuming (see {@link
 * NatsBenchmarkDriver}), each with jnats's own recovery (see {@link NatsConnections}), and what
 * they tell: a lost publishing connection fails the JetStream publishes awaiting their ack, and a
 * slow consumer is reported to its listener.
 */
final class PublishAndConsumeConnections {

  private Connection publishConnection;
  private Connection consumeConnection;
  private final Map<Consumer, MessageListener> slowConsumerListeners = new ConcurrentHashMap<>();
  private final Set<JetStreamProducer> producers = ConcurrentHashMap.newKeySet();

  /** Connects the publishing connection, then the consuming one; {@link #close} closes either. */
  void open(NatsDriverConfig config) throws IOException, InterruptedException {
    publishConnection = connect(config, "plumb-publish");
    consumeConnection = connect(config, "plumb-consume");
  }

  /** The publishing connection; null before {@link #open} and after {@link #close}. */
  Connection publish() {
    return publishConnection;
  }

  /** The consuming connection; null before {@link #open} and after {@link #close}. */
  Connection consume() {
    return consumeConnection;
  }

  /**
   * {@code producer}'s publishes awaiting their ack fail when the publishing connection is lost.
   */
  void watch(JetStreamProducer producer) {
    producers.add(producer);
  }

  void unwatch(JetStreamProducer producer) {
    producers.remove(producer);
  }

  /** {@code listener} hears when the client drops messages of {@code consumer}. */
  void reportSlowConsumer(Consumer consumer, MessageListener listener) {
    slowConsumerListeners.put(consumer, listener);
  }

  void stopReportingSlowConsumer(Consumer consumer) {
    slowConsumerListeners.remove(consumer);
  }

  /** One connection to the cluster, with jnats's own recovery (see {@link NatsConnections}). */
  private Connection connect(NatsDriverConfig config, String name)
      throws IOException, InterruptedException {
    return NatsConnections.open(
        config, name, new SlowConsumerReporter(), new PublishConnectionLoss());
  }

  /**
   * When the publishing connection loses its server, the acks of the JetStream publishes sent on it
   * by then can no longer come: their sends fail now rather than at jnats's request timeout, so
   * send() waiting for a free slot is not held up by them. jnats stamps the event when the loss
   * happens and reports it later on its callback thread; publishes sent after the stamp go out
   * again on the next connection and keep waiting for their acks (see {@link AwaitingAcks}). Once
   * the connection is closed nothing more comes, so every publish awaiting its ack fails.
   */
  private final class PublishConnectionLoss implements ConnectionListener {
    @Override
    public void connectionEvent(Connection connection, Events event, Long time, String uri) {
      if (connection != publishConnection) {
        return;
      }
      if (event == Events.DISCONNECTED) {
        failAwaiting(event, time == null ? System.currentTimeMillis() : time);
      } else if (event == Events.CLOSED) {
        failAwaiting(event, Long.MAX_VALUE);
      }
    }

    /** jnats calls the stamped form above; this one only if a client version lacks it. */
    @Override
    public void connectionEvent(Connection connection, Events event) {
      connectionEvent(connection, event, System.currentTimeMillis(), null);
    }

    private void failAwaiting(Events event, long lostAtMillis) {
      IOException cause =
          new IOException(
              "NATS connection lost ("
                  + event.getEvent()
                  + ") before the publish was acknowledged");
      for (JetStreamProducer producer : producers) {
        producer.failSentBy(lostAtMillis, cause);
      }
    }
  }

  /** Tells a core consumer's listener that the client dropped its messages (slow consumer). */
  private final class SlowConsumerReporter implements ErrorListener {
    @Override
    public void slowConsumerDetected(Connection conn, Consumer consumer) {
      MessageListener listener = slowConsumerListeners.get(consumer);
      if (listener != null) {
        listener.failed(
            new IllegalStateException(
                "NATS slow consumer: the client dropped "
                    + consumer.getDroppedCount()
                    + " messages so far (pending limit reached)"));
      }
    }
  }

  /** Closes both connections, the publishing one once its queued publishes are flushed. */
  void close() throws InterruptedException {
    Connection pub = publishConnection;
    Connection sub = consumeConnection;
    publishConnection = null;
    consumeConnection = null;
    if (pub != null) {
      // Let queued publishes reach the server before closing.
      try {
        pub.flush(Duration.ofSeconds(5));
      } catch (Exception ignored) {
        // Closing anyway; a failed flush means the server is gone.
      }
      pub.close();
    }
    if (sub != null) {
      sub.close();
    }
  }
}
