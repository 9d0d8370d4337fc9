package io.plumb.worker;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.MessageListener;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A broker stand-in for tests that hands every message to every consumer, whatever its topic or
 * subscription: topics need no creating, and a consumer listens until it is closed. Subclasses say
 * when messages are acknowledged and delivered.
 */
public abstract class EveryConsumerDriver implements BenchmarkDriver {
  /** The consumers open now, each to be handed every message. */
  protected final List<MessageListener> consumers = new CopyOnWriteArrayList<>();

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    consumers.add(listener);
    return CompletableFuture.completedFuture(() -> consumers.remove(listener));
  }
}
