package io.plumb.driver.kafka;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.FinalReader;
import io.plumb.driver.MessageListener;
import io.plumb.driver.OpenClients;
import io.plumb.driver.SingleRoleLocator;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Apache Kafka through the official kafka-clients: one admin client for topics, one {@link
 * KafkaProducer} per benchmark producer, one {@link KafkaConsumer} (and poll thread) per benchmark
 * consumer, the subscription being the consumer group.
 *
 * <p>As a {@link SingleRoleLocator} it names the broker leading partition 0 of a topic, as the
 * cluster's metadata says now: the node a fault plan's {@code target: leader} hits. As a {@link
 * FinalReader} it reads a topic's every partition to its end offsets after the run.
 *
 * <p>Not final: a test's driver extends it to change one method and keep the rest as they are.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver"})
public class KafkaBenchmarkDriver implements BenchmarkDriver, SingleRoleLocator, FinalReader {
  /**
   * How long one question for a topic's leader may take: a broker that does not answer (frozen, cut
   * off) must not hold up the fault schedule, which asks again.
   */
  private static final int LEADER_TIMEOUT_MILLIS = 3_000;

  private static final Duration ADMIN_CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private DriverSettings file;
  private KafkaSettings settings;
  private Admin admin;
  private KafkaTopics kafkaTopics;
  private final OpenClients clients = new OpenClients();

  private Config validatedTopicConfig;

  @Override
  public void initialize(DriverConfig config) throws Exception {
    file = config.settings();
    settings = KafkaSettings.resolve(file, config.environment());
    admin = Admin.create(settings.admin());
    kafkaTopics = new KafkaTopics(admin, settings);
    try {
      validatedTopicConfig =
          new TopicSettingsCheck(admin, settings, file).checkOnBroker(topicNamePrefix());
      if (settings.reset()) {
        kafkaTopics.deleteLeftovers(topicNamePrefix());
      }
    } catch (Exception e) {
      admin.close(Duration.ZERO);
      throw e;
    }
  }

  /** The batch path with one topic: the same request and the same checks that it is usable. */
  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return createTopics(List.of(topic), partitions);
  }

  /** In batches, each checked usable before it completes: see {@link KafkaTopics#create}. */
  @Override
  public CompletableFuture<Void> createTopics(List<String> topics, int partitions) {
    return kafkaTopics.create(topics, partitions);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    try {
      return CompletableFuture.completedFuture(
          clients.add(new KafkaBenchmarkProducer(new KafkaProducer<>(settings.producer()), topic)));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    Map<String, Object> properties = new HashMap<>(settings.consumer());
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, subscription);
    KafkaConsumer<String, byte[]> client;
    try {
      client = new KafkaConsumer<>(properties);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    try {
      KafkaBenchmarkConsumer consumer =
          new KafkaBenchmarkConsumer(client, topic, subscription, listener, settings.autoCommit());
      return CompletableFuture.completedFuture(clients.add(consumer));
    } catch (RuntimeException e) {
      client.close(Duration.ZERO);
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Reads every partition from its start to its end offset ({@link KafkaFinalRead}). */
  @Override
  public String readToEnd(String topic, String subscription, MessageListener sink, Duration timeout)
      throws Exception {
    return KafkaFinalRead.read(settings.consumer(), topic, sink, timeout);
  }

  /** Completes once no deleted topic is listed any more: see {@link KafkaTopics#delete}. */
  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    return kafkaTopics.delete(topics);
  }

  /**
   * The node id of the broker leading partition 0 of {@code topic}, from the metadata of whichever
   * broker the admin client asks ({@code describeTopics}); empty while the partition has no leader
   * (an election under way, or every replica down).
   */
  @Override
  public Optional<String> leaderOf(String topic) throws Exception {
    TopicDescription description =
        admin
            .describeTopics(
                List.of(topic), new DescribeTopicsOptions().timeoutMs(LEADER_TIMEOUT_MILLIS))
            .allTopicNames()
            .get(LEADER_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
            .get(topic);
    return description.partitions().stream()
        .filter(partition -> partition.partition() == 0)
        .findFirst()
        .map(TopicPartitionInfo::leader)
        .filter(leader -> leader != null && !leader.isEmpty())
        .map(Node::idString);
  }

  /** The leader of partition 0, and its followers: every other broker of the cluster. */
  @Override
  public Role role() {
    return new Role("leader", "leader of partition 0", "brokers but partition 0's leader");
  }

  @Override
  public Map<String, String> brokerFacts() {
    // Before initialize (or after it failed) no topic exists: the facts say what can be read.
    Set<String> created = kafkaTopics == null ? Set.of() : kafkaTopics.created();
    return BrokerFacts.read(admin, settings, created, validatedTopicConfig);
  }

  @Override
  public void close() throws Exception {
    // The framework closes producers and consumers first; whatever it did not close (a failed
    // run) is closed here. Closing twice is harmless for both.
    Exception failure = clients.closeAll();
    if (admin != null) {
      admin.close(ADMIN_CLOSE_TIMEOUT);
    }
    if (failure != null) {
      throw failure;
    }
  }
}
