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
 *
 * <p>It cannot pause: see {@link #pause}.
 */
final class CoreNatsConsumer implements BenchmarkConsumer {

  /** Why a core NATS consumer cannot pause, in the one-line refusal of a backlog workload. */
  static final String CANNOT_PAUSE =
      "core NATS keeps no messages for a subscriber that is not reading, so no backlog can build;"
          + " use a JetStream file such as driver-nats/nats-jetstream.yaml";

  private final Connection connection;
  private final Dispatcher dispatcher;
  private volatile Runnable beforeClose = () -> {};

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
    Dispatcher dispatcher =
        connection.createDispatcher(TopicDelivery.handler(topic, listener, message -> {}));
    // Pending limits: messages unlimited, bytes bounded; past that the client drops (lossy mode).
    dispatcher.setPendingLimits(-1, pendingBytes);
    dispatcher.subscribe(Subjects.wildcard(topic), subscription);
    connection.flush(Duration.ofSeconds(10));
    return new CoreNatsConsumer(connection, dispatcher);
  }

  Dispatcher dispatcher() {
    return dispatcher;
  }

  /** Runs {@code action} when this consumer closes, before its dispatcher does. */
  CoreNatsConsumer beforeClose(Runnable action) {
    beforeClose = action;
    return this;
  }

  /**
   * Core NATS delivers a message to the subscribers reading when it arrives and keeps nothing for
   * the others: a subscriber that stopped reading would lose (or, past its pending limit, drop)
   * what a backlog workload means to keep waiting for it.
   *
   * @throws UnsupportedOperationException always, saying so and what to use instead
   */
  @Override
  public void pause() {
    throw new UnsupportedOperationException(CANNOT_PAUSE);
  }

  /**
   * @throws UnsupportedOperationException always, as {@link #pause}
   */
  @Override
  public void resume() {
    throw new UnsupportedOperationException(CANNOT_PAUSE);
  }

  @Override
  public void close() {
    beforeClose.run();
    connection.closeDispatcher(dispatcher);
  }
}
