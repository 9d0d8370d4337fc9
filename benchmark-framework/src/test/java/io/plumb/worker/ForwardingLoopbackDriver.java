package io.plumb.worker;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.loopback.LoopbackDriver;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A test driver that is the loopback driver in every respect but those it overrides: everything
 * else passes to a real {@link LoopbackDriver}.
 */
public abstract class ForwardingLoopbackDriver implements BenchmarkDriver {
  protected final LoopbackDriver loopback = new LoopbackDriver();

  @Override
  public void initialize(DriverConfig config) throws Exception {
    loopback.initialize(config);
  }

  @Override
  public String topicNamePrefix() {
    return loopback.topicNamePrefix();
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return loopback.createTopic(topic, partitions);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return loopback.createProducer(topic);
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    return loopback.createConsumer(topic, subscription, listener);
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    return loopback.deleteTopics(topics);
  }

  @Override
  public Map<String, String> brokerFacts() {
    return loopback.brokerFacts();
  }

  /**
   * The loopback's facts with {@code added} put over them: what a driver that reports facts of its
   * own (a limit, a count) returns from {@link #brokerFacts}.
   */
  protected final Map<String, String> loopbackFactsWith(Map<String, String> added) {
    Map<String, String> facts = new HashMap<>(loopback.brokerFacts());
    facts.putAll(added);
    return Map.copyOf(facts);
  }

  @Override
  public void close() {
    loopback.close();
  }
}
