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
 * An in-process "broker" that hands each message straight to the subscribed consumers, inside the
 * producer's send() call, then acknowledges it. Nothing is copied or queued, so a run on it
 * measures Plumb itself: what a worker host can push, and what the engine adds to every latency.
 *
 * <p>For tests of the measurement itself it can stall once, like a broker pausing: after a given
 * number of messages, one send blocks for a given time.
 */
public final class LoopbackDriver implements BenchmarkDriver {
  private final Map<String, LoopbackTopic> topics = new ConcurrentHashMap<>();
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
    LoopbackConsumer[] created = new LoopbackConsumer[1];
    created[0] = new LoopbackConsumer(listener, () -> target.unsubscribe(subscription, created[0]));
    target.subscribe(subscription, created[0]);
    return CompletableFuture.completedFuture(created[0]);
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
