package io.plumb.loopback;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.FinalReader;
import io.plumb.driver.MessageListener;
import io.plumb.message.MessageHeader;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-process "broker" that hands each message straight to the subscribed consumers, inside the
 * producer's send() call, then acknowledges it. Nothing is copied or queued, so a run on it
 * measures Plumb itself: what a worker host can push, and what the engine adds to every latency.
 *
 * <p>For tests of the measurement itself it can stall once, like a broker pausing: after a given
 * number of messages, one send blocks for a given time; and, with {@code keepMessages}, its topics
 * keep what they acknowledged for a final read, while chosen messages can be hidden from consumers
 * or dropped after being acknowledged, and one partition's sends held unanswered until their
 * producer closes ({@link LoopbackConfig}).
 */
public final class LoopbackDriver implements BenchmarkDriver, FinalReader {
  private final Map<String, LoopbackTopic> topics = new ConcurrentHashMap<>();
  private LoopbackConfig config;
  private Stall stall;
  private Mishaps mishaps;

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    config = LoopbackConfig.read(driverConfig);
    stall =
        config.stallAfterMessages() > 0
            ? new Stall(config.stallAfterMessages(), config.stallMillis())
            : null;
    mishaps = config.mishaps() ? new Mishaps(config) : null;
  }

  @Override
  public String topicNamePrefix() {
    return "loopback";
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    topics.put(topic, new LoopbackTopic(partitions, config.keepMessages()));
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return CompletableFuture.completedFuture(
        new LoopbackProducer(topicNamed(topic), stall, mishaps));
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
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put("delivery", "synchronous, inside send()");
    facts.put("stallAfterMessages", Long.toString(config.stallAfterMessages()));
    facts.put("stallMillis", Long.toString(config.stallMillis()));
    facts.put("keepMessages", Boolean.toString(config.keepMessages()));
    if (config.headerMetadata()) {
      // In memory the header is its own array beside the body: its 26 bytes and nothing more.
      facts.put(BrokerFactNames.HEADER_METADATA, "a field beside the message body");
      facts.put(BrokerFactNames.HEADER_METADATA_BYTES, Integer.toString(MessageHeader.SIZE));
    }
    return facts;
  }

  @Override
  public Optional<String> whyNoFinalRead() {
    return config.keepMessages()
        ? Optional.empty()
        : Optional.of("the loopback driver keeps no messages unless keepMessages is true");
  }

  /**
   * Hands over every message the topic kept; a loopback topic is a log, whatever the subscription.
   */
  @Override
  public String readToEnd(
      String topic, String subscription, MessageListener sink, Duration timeout) {
    LoopbackTopic target = topicNamed(topic);
    if (!target.keepsMessages()) {
      throw new IllegalStateException(whyNoFinalRead().orElseThrow());
    }
    var kept = target.keptSoFar();
    for (LoopbackTopic.Kept message : kept) {
      if (message.header() == null) {
        sink.received(message.payload(), message.partition());
      } else {
        sink.received(message.header(), message.payload(), message.partition());
      }
    }
    return String.format("%,d message(s) kept", kept.size());
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
