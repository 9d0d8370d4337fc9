package io.plumb.cli;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.loopback.LoopbackDriver;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The loopback driver reporting a message size limit, as a driver whose client or broker has one
 * does. Test code only.
 */
public final class MessageLimitDriver implements BenchmarkDriver {
  static final int LIMIT = 64;
  static final String LIMIT_SETTING = "test limit 64; raise it with --driver-set limit=N";

  private final LoopbackDriver loopback = new LoopbackDriver();

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
    Map<String, String> facts = new HashMap<>(loopback.brokerFacts());
    facts.put(BrokerFactNames.MAX_MESSAGE_BYTES, String.valueOf(LIMIT));
    facts.put(BrokerFactNames.MAX_MESSAGE_BYTES_LIMIT, LIMIT_SETTING);
    return Map.copyOf(facts);
  }

  @Override
  public void close() {
    loopback.close();
  }
}
