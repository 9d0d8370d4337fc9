package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.time.Duration;

/**
 * A core NATS subscriber: a queue subscription named after the benchmark subscription, so the
 * consumers of one subscription share the messages and every subscription gets all of them. Core
 * NATS delivers at most once: a subscriber that falls behind past its pending limit loses messages
 * (reported to the listener as a failure by the driver's error listener).
 */
final class CoreNatsConsumer implements BenchmarkConsumer {

  private final Connection connection;
  private final Dispatcher dispatcher;

  private CoreNatsConsumer(Connection connection, Dispatcher dispatcher) {
    this.connection = connection;
    this.dispatcher = dispatcher;
  }

  /**
   * Subscribes and waits until the server has registered the subscription (a flush is a round trip
   * after the SUB), so messages sent after this returns reach it.
   */
  static CoreNatsConsumer subscribe(
      Connection connection,
      String topic,
      String subscription,
      long pendingBytes,
      MessageListener listener)
      throws Exception {
    int prefix = topic.length() + 1;
    Dispatcher dispatcher =
        connection.createDispatcher(
            msg -> {
              try {
                listener.received(msg.getData(), Subjects.partitionOf(msg.getSubject(), prefix));
              } catch (RuntimeException e) {
                listener.failed(e);
              }
            });
    // Pending limits: messages unlimited, bytes bounded; past that the client drops (lossy mode).
    dispatcher.setPendingLimits(-1, pendingBytes);
    dispatcher.subscribe(Subjects.wildcard(topic), subscription);
    connection.flush(Duration.ofSeconds(10));
    return new CoreNatsConsumer(connection, dispatcher);
  }

  Dispatcher dispatcher() {
    return dispatcher;
  }

  @Override
  public void close() {
    connection.closeDispatcher(dispatcher);
  }
}
