package io.plumb.driver.kafka;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.FinalReader;
import io.plumb.driver.LeaderLocator;
import io.plumb.driver.MessageListener;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Kafka driver with consumers a test holds back: once the run's consumers together received
 * {@link #holdBackAfterMessages} messages, every consumer is paused for the rest of the run, like a
 * consumer slow to come back after a fault. The broker keeps what they did not read.
 */
public final class HeldBackKafkaDriver implements BenchmarkDriver, LeaderLocator, FinalReader {
  /** Set by the test before the run; the engine creates the driver from its class name. */
  static volatile long holdBackAfterMessages = Long.MAX_VALUE;

  private final KafkaBenchmarkDriver kafka = new KafkaBenchmarkDriver();
  private final AtomicLong received = new AtomicLong();
  private final Queue<BenchmarkConsumer> consumers = new ConcurrentLinkedQueue<>();

  @Override
  public void initialize(DriverConfig config) throws Exception {
    kafka.initialize(config);
  }

  @Override
  public String topicNamePrefix() {
    return kafka.topicNamePrefix();
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return kafka.createTopic(topic, partitions);
  }

  @Override
  public CompletableFuture<Void> createTopics(List<String> topics, int partitions) {
    return kafka.createTopics(topics, partitions);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return kafka.createProducer(topic);
  }

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
    return kafka
        .createConsumer(topic, subscription, counting)
        .thenApply(
            consumer -> {
              consumers.add(consumer);
              return consumer;
            });
  }

  /** Messages the consumers received before they were held back, and after (none). */
  long received() {
    return received.get();
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    return kafka.deleteTopics(topics);
  }

  @Override
  public Map<String, String> brokerFacts() {
    return kafka.brokerFacts();
  }

  @Override
  public Map<String, String> targets() {
    return kafka.targets();
  }

  @Override
  public Optional<String> locate(String target, String topic) throws Exception {
    return kafka.locate(target, topic);
  }

  @Override
  public String readToEnd(String topic, String subscription, MessageListener sink, Duration timeout)
      throws Exception {
    return kafka.readToEnd(topic, subscription, sink, timeout);
  }

  @Override
  public void close() throws Exception {
    kafka.close();
  }
}
