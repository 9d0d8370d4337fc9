package io.plumb.driver;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One broker client for one benchmark run: creates topics, producers and consumers.
 *
 * <p>The framework creates the driver with its public no-argument constructor, calls {@link
 * #initialize} once, then the factory methods (possibly from several threads), and finally {@link
 * #close}. Futures may complete on any thread. A driver must not block the caller of {@link
 * BenchmarkProducer#send} longer than its client library does.
 */
public interface BenchmarkDriver extends AutoCloseable {

  /**
   * Reads the driver's settings and connects. The framework has parsed the YAML file: read the
   * fields from {@link DriverConfig#settings()} and call {@link DriverSettings#finish()}, which
   * rejects unknown or misspelled fields and {@code --driver-set} keys with a one-line {@link
   * DriverConfigException} naming the file, the line and the field. When the broker does not answer
   * at the address the file gives, throw {@link BrokerUnreachableException} rather than the client
   * library's own exception.
   */
  void initialize(DriverConfig config) throws Exception;

  /** Prefix of the topic names the framework generates; override for brokers with naming rules. */
  default String topicNamePrefix() {
    return "plumb";
  }

  /** Creates a topic with the given number of partitions (or the broker's equivalent). */
  CompletableFuture<Void> createTopic(String topic, int partitions);

  /**
   * Creates many topics of {@code partitions} each, completing once all exist or failing with the
   * first failure. The default calls {@link #createTopic} for each, all at once; drivers whose
   * admin API takes batches (Kafka's createTopics) or that should bound how many requests are in
   * flight override it. A run of many topics calls this with up to 1,000 at a time.
   */
  default CompletableFuture<Void> createTopics(List<String> topics, int partitions) {
    return CompletableFuture.allOf(
        topics.stream()
            .map(topic -> createTopic(topic, partitions))
            .toArray(CompletableFuture<?>[]::new));
  }

  /** Creates a producer for one topic. The framework creates one per benchmark producer. */
  CompletableFuture<BenchmarkProducer> createProducer(String topic);

  /**
   * Creates a consumer that joins {@code subscription} on {@code topic}: consumers of the same
   * subscription share the topic's messages, each subscription receives all of them. The consumer
   * starts delivering to {@code listener} as soon as it is created.
   */
  CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener);

  /**
   * Removes topics this run created, so the next run starts clean. Called after every producer and
   * consumer is closed. The default keeps them.
   */
  default CompletableFuture<Void> deleteTopics(List<String> topics) {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Facts the driver established about the broker it runs against (for example a durability setting
   * it applied and read back), recorded as they are in the result. Called after {@link #initialize}
   * and again once the run's topics exist; the second answer is the one recorded. Report
   * replication under the names of {@link BrokerFactNames} (copies the broker holds of the topics
   * just created, the nodes holding them, the cluster's node count, the broker's version). A file
   * that asks for more copies than the cluster has nodes should fail {@link #initialize} with a
   * {@link DriverConfigException} naming the file, the setting and the node count.
   */
  default Map<String, String> brokerFacts() {
    return Map.of();
  }
}
