package io.plumb.loopback;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-process "broker": send() copies each message straight into a bounded queue of one consumer
 * per subscription and acknowledges it; each consumer has its own thread that hands messages to the
 * framework. No network, no storage, so a run on it measures Plumb itself: what a worker host can
 * push, and what the engine adds to every latency.
 *
 * <p>For tests of the measurement itself it can stall once, like a broker pausing: after a given
 * number of messages, one send blocks for a given time.
 */
public final class LoopbackDriver implements BenchmarkDriver {
  /** Messages each consumer may have queued before producers wait: 4 MB of 1 KB messages. */
  private static final int QUEUE_CAPACITY = 4096;

  private final Map<String, LoopbackTopic> topics = new ConcurrentHashMap<>();
  private int consumerCount;
  private LoopbackConfig config;
  private Stall stall;

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    config = LoopbackConfig.read(driverConfig);
    stall =
        config.stallAfterMessages() > 0
            ? new Stall(config.stallAfterMessages(), config.stallMillis())
            : null;
  }

  @Override
  public String topicNamePrefix() {
    return "loopback";
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    topics.put(topic, new LoopbackTopic(partitions));
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return CompletableFuture.completedFuture(new LoopbackProducer(topicNamed(topic), stall));
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    LoopbackTopic target = topicNamed(topic);
    LoopbackConsumer[] self = new LoopbackConsumer[1];
    self[0] =
        new LoopbackConsumer(
            new DeliveryQueue(QUEUE_CAPACITY),
            listener,
            "loopback-" + subscription + "-" + consumerCount++,
            () -> target.unsubscribe(subscription, self[0]));
    target.subscribe(subscription, self[0]);
    return CompletableFuture.completedFuture(self[0]);
  }

  @Override
  public Map<String, String> brokerFacts() {
    return Map.of(
        "delivery",
        "synchronous, inside send()",
        "stallAfterMessages",
        Long.toString(config.stallAfterMessages()),
        "stallMillis",
        Long.toString(config.stallMillis()));
  }

  private LoopbackTopic topicNamed(String topic) {
    LoopbackTopic target = topics.get(topic);
    if (target == null) {
      throw new IllegalStateException("no loopback topic '" + topic + "'");
    }
    return target;
  }

  @Override
  public void close() {
    topics.clear();
  }
}
