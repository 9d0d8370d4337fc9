package io.plumb.driver.kafka;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Kafka driver with consumers a test holds back: once the run's consumers together received
 * {@link #holdBackAfterMessages} messages, every consumer is paused for the rest of the run, like a
 * consumer slow to come back after a fault. The broker keeps what they did not read.
 */
public final class HeldBackKafkaDriver extends KafkaBenchmarkDriver {
  /** Set by the test before the run; the engine creates the driver from its class name. */
  static volatile long holdBackAfterMessages = Long.MAX_VALUE;

  private final AtomicLong received = new AtomicLong();
  private final Queue<BenchmarkConsumer> consumers = new ConcurrentLinkedQueue<>();

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    MessageListener counting =
        new MessageListener() {
          @Override
          public void received(byte[] payload, int partition) {
            listener.received(payload, partition);
            if (received.incrementAndGet() == holdBackAfterMessages) {
              // pause() only sets a flag each poll thread applies before its next poll.
              consumers.forEach(BenchmarkConsumer::pause);
            }
          }

          @Override
          public void failed(Throwable error) {
            listener.failed(error);
          }
        };
    return super.createConsumer(topic, subscription, counting)
        .thenApply(
            consumer -> {
              consumers.add(consumer);
              return consumer;
            });
  }
}
