package io.plumb.driver.kafka;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.FinalReader;
import io.plumb.driver.LeaderLocator;
import io.plumb.driver.MessageListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;

/**
 * Apache Kafka through the official kafka-clients: one admin client for topics, one {@link
 * KafkaProducer} per benchmark producer, one {@link KafkaConsumer} (and poll thread) per benchmark
 * consumer, the subscription being the consumer group.
 *
 * <p>As a {@link LeaderLocator} it names the broker leading partition 0 of a topic, as the
 * cluster's metadata says now: the node a fault plan's {@code target: leader} hits. As a {@link
 * FinalReader} it reads a topic's every partition to its end offsets after the run.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver"})
public final class KafkaBenchmarkDriver implements BenchmarkDriver, LeaderLocator, FinalReader {
  private static final Duration TOPIC_READY_TIMEOUT = Duration.ofSeconds(30);

  /**
   * How long one question for a topic's leader may take: a broker that does not answer (frozen, cut
   * off) must not hold up the fault schedule, which asks again.
   */
  private static final int LEADER_TIMEOUT_MILLIS = 3_000;

  /** How long initialize() waits for the broker to answer before calling it unreachable. */
  private static final long CONNECT_TIMEOUT_SECONDS = 15;

  private static final Duration ADMIN_CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private DriverSettings file;
  private KafkaSettings settings;
  private Admin admin;
  private final Queue<AutoCloseable> openClients = new ConcurrentLinkedQueue<>();

  /** Topics this driver created and has not deleted: the ones whose replicas brokerFacts reads. */
  private final Set<String> createdTopics = ConcurrentHashMap.newKeySet();

  private Config validatedTopicConfig;

  @Override
  public void initialize(DriverConfig config) throws Exception {
    file = config.settings();
    settings = KafkaSettings.resolve(file, System.getenv());
    admin = Admin.create(settings.admin());
    try {
      checkTopicSettingsOnBroker();
      if (settings.reset()) {
        deleteLeftoverTopics();
      }
    } catch (Exception e) {
      admin.close(Duration.ZERO);
      throw e;
    }
  }

  /**
   * Asks the broker to validate a topic with the file's replication factor and topic settings
   * without creating it, so a setting the broker rejects (an unknown name, more replicas than
   * brokers) fails the run before it starts, with the file and line.
   */
  private void checkTopicSettingsOnBroker() throws Exception {
    checkMinInsyncReplicas();
    checkCopiesFitTheCluster();
    NewTopic probe =
        new NewTopic(
                topicNamePrefix() + "-config-check", Optional.of(1), settings.replicationFactor())
            .configs(settings.topicConfig());
    try {
      CreateTopicsResult result =
          admin.createTopics(List.of(probe), new CreateTopicsOptions().validateOnly(true));
      result.all().get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      validatedTopicConfig = validatedConfig(result, probe.name());
    } catch (TimeoutException e) {
      throw unreachable();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      String message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
      if (cause instanceof InvalidReplicationFactorException) {
        throw file.error("replicationFactor", "the broker rejects it: " + message);
      }
      if (cause instanceof org.apache.kafka.common.errors.InvalidConfigurationException
          || cause instanceof org.apache.kafka.common.errors.PolicyViolationException) {
        throw file.error("topicConfig", "the broker rejects it: " + message);
      }
      throw e;
    }
  }

  /**
   * More copies than the cluster has brokers can never be placed: refused in one line that names
   * the setting and the broker count the cluster reports, before the broker's own wordier refusal.
   */
  private void checkCopiesFitTheCluster() throws Exception {
    if (settings.replicationFactor().isEmpty()) {
      return;
    }
    int copies = settings.replicationFactor().get();
    int brokers;
    try {
      brokers =
          admin.describeCluster().nodes().get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS).size();
    } catch (TimeoutException e) {
      throw unreachable();
    }
    if (copies > brokers) {
      throw file.error(
          KafkaSettings.REPLICATION_FACTOR_KEY,
          "asks for "
              + copies
              + " copies but the Kafka cluster at "
              + bootstrapServers()
              + " has "
              + brokers
              + (brokers == 1 ? " broker" : " brokers")
              + " (start "
              + copies
              + ": deploy/local/kafka.sh start --nodes "
              + copies
              + ")");
    }
  }

  private BrokerUnreachableException unreachable() {
    return new BrokerUnreachableException(
        file.file(),
        "Kafka",
        String.valueOf(bootstrapServers()),
        "no answer within " + CONNECT_TIMEOUT_SECONDS + " s",
        "deploy/local/kafka.sh start",
        "--driver-set bootstrap.servers=HOST:PORT or " + KafkaSettings.BOOTSTRAP_ENV);
  }

  private Object bootstrapServers() {
    return settings.admin().get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
  }

  /**
   * The settings the broker says the topic would get (brokers since 2.4 answer a validation with
   * them): what brokerFacts reports until a real topic exists. Null from older brokers.
   */
  private static Config validatedConfig(CreateTopicsResult result, String topic)
      throws InterruptedException, TimeoutException {
    try {
      return result.config(topic).get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return null;
    }
  }

  /** With fewer replicas than min.insync.replicas every acks=all send would fail. */
  private void checkMinInsyncReplicas() throws DriverConfigException {
    String minInsync = settings.topicConfig().get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
    if (minInsync == null || settings.replicationFactor().isEmpty()) {
      return;
    }
    try {
      if (Integer.parseInt(minInsync.trim()) > settings.replicationFactor().get()) {
        throw file.error(
            "topicConfig",
            TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
            "min.insync.replicas="
                + minInsync
                + " is more than replicationFactor="
                + settings.replicationFactor().get()
                + ": every acks=all send would fail (a single local broker needs 1)");
      }
    } catch (NumberFormatException e) {
      throw file.error(
          "topicConfig", TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "not a number: " + minInsync);
    }
  }

  /** OMB's {@code reset: true}: remove what earlier runs left behind under this prefix. */
  private void deleteLeftoverTopics() throws Exception {
    Set<String> existing =
        admin.listTopics().names().get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    List<String> leftovers = new ArrayList<>();
    for (String topic : existing) {
      if (topic.startsWith(topicNamePrefix())) {
        leftovers.add(topic);
      }
    }
    if (!leftovers.isEmpty()) {
      admin.deleteTopics(leftovers).all().get(60, TimeUnit.SECONDS);
    }
  }

  private static final int TOPICS_PER_REQUEST = 1_000;

  /** The batch path with one topic: the same request and the same checks that it is usable. */
  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return createTopics(List.of(topic), partitions);
  }

  /**
   * Topics in CreateTopics requests of {@value #TOPICS_PER_REQUEST}, all sent at once (the admin
   * client pipelines them to the controller), then checked usable by batch: one request per
   * thousand topics instead of one per topic. Ten thousand single-topic requests and their describe
   * polls kept the controller busy for minutes.
   */
  @Override
  public CompletableFuture<Void> createTopics(List<String> topics, int partitions) {
    // Any batch's progress counts: the broker creates the batches' logs one after another.
    AtomicLong lastProgress = new AtomicLong(System.nanoTime());
    List<CompletableFuture<Void>> batches = new ArrayList<>();
    for (int from = 0; from < topics.size(); from += TOPICS_PER_REQUEST) {
      List<String> batch =
          List.copyOf(topics.subList(from, Math.min(topics.size(), from + TOPICS_PER_REQUEST)));
      List<NewTopic> requests =
          batch.stream()
              .map(
                  topic ->
                      new NewTopic(topic, Optional.of(partitions), settings.replicationFactor())
                          .configs(settings.topicConfig()))
              .toList();
      batches.add(
          admin
              .createTopics(requests)
              .all()
              .toCompletionStage()
              .toCompletableFuture()
              .thenCompose(created -> awaitAllUsable(batch, partitions, lastProgress))
              .thenRun(() -> createdTopics.addAll(batch)));
    }
    return CompletableFuture.allOf(batches.toArray(CompletableFuture<?>[]::new));
  }

  /**
   * Completes once every topic of the batch is usable. The controller acknowledges a new topic
   * before the broker's metadata has it; until then produce, fetch and describeConfigs answer
   * UnknownTopicOrPartition. A topic is usable once it describes with a leader for every partition,
   * its configs can be read and every leader serves its partition ({@link LeadersServing}); each
   * check asks once about all the topics not yet usable, 50 ms after the previous one. The broker
   * creates each partition's log after the controller's answer, a few hundred a second on a small
   * host, so the wait gives up only after {@code TOPIC_READY_TIMEOUT} without any topic of any
   * batch becoming usable ({@code lastProgress}), not after a fixed time for the whole batch.
   */
  private CompletableFuture<Void> awaitAllUsable(
      List<String> pending, int partitions, AtomicLong lastProgress) {
    Map<String, KafkaFuture<TopicDescription>> described =
        admin.describeTopics(pending).topicNameValues();
    AtomicReference<Throwable> lastError = new AtomicReference<>();
    List<CompletableFuture<String>> led = new ArrayList<>();
    for (String topic : pending) {
      led.add(
          described
              .get(topic)
              .toCompletionStage()
              .toCompletableFuture()
              .handle(
                  (description, error) -> {
                    if (error != null) {
                      lastError.set(error);
                    }
                    return error == null
                            && description.partitions().size() == partitions
                            && description.partitions().stream()
                                .allMatch(p -> p.leader() != null && !p.leader().isEmpty())
                        ? topic
                        : null;
                  }));
    }
    return CompletableFuture.allOf(led.toArray(CompletableFuture<?>[]::new))
        .thenCompose(
            all -> {
              List<String> withLeaders =
                  led.stream().map(f -> f.join()).filter(t -> t != null).toList();
              return configsReadable(withLeaders)
                  .thenCompose(
                      readable -> LeadersServing.of(admin, List.copyOf(readable), partitions));
            })
        .thenCompose(
            usable -> {
              List<String> left = pending.stream().filter(t -> !usable.contains(t)).toList();
              if (left.isEmpty()) {
                return CompletableFuture.<Void>completedFuture(null);
              }
              long now = System.nanoTime();
              if (left.size() < pending.size()) {
                lastProgress.accumulateAndGet(now, Math::max);
              } else if (now - lastProgress.get() > TOPIC_READY_TIMEOUT.toNanos()) {
                return CompletableFuture.<Void>failedFuture(
                    new TimeoutException(
                        String.format(
                            "%d topic(s) from %s not usable: no topic became usable in %d s"
                                + " (last answer: %s)",
                            left.size(),
                            left.get(0),
                            TOPIC_READY_TIMEOUT.toSeconds(),
                            lastError.get())));
              }
              return shortlyThen(() -> awaitAllUsable(left, partitions, lastProgress));
            });
  }

  /** The topics of {@code topics} whose configs the broker can read. */
  private CompletableFuture<Set<String>> configsReadable(List<String> topics) {
    if (topics.isEmpty()) {
      return CompletableFuture.completedFuture(Set.of());
    }
    Map<ConfigResource, KafkaFuture<Config>> configs =
        admin
            .describeConfigs(
                topics.stream()
                    .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic))
                    .toList())
            .values();
    List<CompletableFuture<String>> readable = new ArrayList<>();
    configs.forEach(
        (resource, future) ->
            readable.add(
                future
                    .toCompletionStage()
                    .toCompletableFuture()
                    .handle((config, error) -> error == null ? resource.name() : null)));
    return CompletableFuture.allOf(readable.toArray(CompletableFuture<?>[]::new))
        .thenApply(
            all ->
                readable.stream()
                    .map(CompletableFuture::join)
                    .filter(t -> t != null)
                    .collect(Collectors.toSet()));
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    try {
      KafkaBenchmarkProducer producer =
          new KafkaBenchmarkProducer(new KafkaProducer<>(settings.producer()), topic);
      openClients.add(producer);
      return CompletableFuture.completedFuture(producer);
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
      openClients.add(consumer);
      return CompletableFuture.completedFuture(consumer);
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

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    if (topics.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    long deadline = System.nanoTime() + TOPIC_READY_TIMEOUT.toNanos();
    return admin
        .deleteTopics(topics)
        .all()
        .toCompletionStage()
        .toCompletableFuture()
        .thenCompose(deleted -> awaitGone(topics, deadline))
        .thenRun(() -> topics.forEach(createdTopics::remove));
  }

  /**
   * As with creation, the controller acknowledges a deletion before the broker's metadata drops the
   * topic; a topic listed again right after could not be created anew. Completes once no topic of
   * {@code topics} is listed, checking every 50 ms until {@code deadline}.
   */
  private CompletableFuture<Void> awaitGone(List<String> topics, long deadline) {
    return admin
        .listTopics()
        .names()
        .toCompletionStage()
        .toCompletableFuture()
        .thenCompose(
            names -> {
              List<String> left = topics.stream().filter(names::contains).toList();
              if (left.isEmpty()) {
                return CompletableFuture.<Void>completedFuture(null);
              }
              long now = System.nanoTime();
              // Thousands of deletions take longer than one: wait while the list shrinks.
              long next =
                  left.size() < topics.size() ? now + TOPIC_READY_TIMEOUT.toNanos() : deadline;
              if (now > next) {
                return CompletableFuture.<Void>failedFuture(
                    new TimeoutException(
                        String.format(
                            "%d topic(s) from %s still listed: none went in the %d s after"
                                + " their deletion",
                            left.size(), left.get(0), TOPIC_READY_TIMEOUT.toSeconds())));
              }
              return shortlyThen(() -> awaitGone(left, next));
            });
  }

  /** {@code next}, 50 ms from now: the pause between two checks of a topic's state. */
  private static CompletableFuture<Void> shortlyThen(Supplier<CompletableFuture<Void>> next) {
    return CompletableFuture.supplyAsync(
            () -> null, CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS))
        .thenCompose(ignored -> next.get());
  }

  /**
   * The node id of the broker leading partition 0 of {@code topic}, from the metadata of whichever
   * broker the admin client asks ({@code describeTopics}); empty while the partition has no leader
   * (an election under way, or every replica down).
   */
  Optional<String> leaderOf(String topic) throws Exception {
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
  public Map<String, String> targets() {
    return Map.of(
        "leader", "leader of partition 0", "followers", "brokers but partition 0's leader");
  }

  /** {@code leader} only: see {@link #leaderOf}. */
  @Override
  public Optional<String> locate(String target, String topic) throws Exception {
    if (!target.equals("leader")) {
      throw new IllegalArgumentException("this driver names no " + target);
    }
    return leaderOf(topic);
  }

  @Override
  public Map<String, String> brokerFacts() {
    return BrokerFacts.read(admin, settings, Set.copyOf(createdTopics), validatedTopicConfig);
  }

  @Override
  public void close() throws Exception {
    // The framework closes producers and consumers first; whatever it did not close (a failed
    // run) is closed here. Closing twice is harmless for both.
    Exception failure = null;
    for (AutoCloseable client; (client = openClients.poll()) != null; ) {
      try {
        client.close();
      } catch (Exception e) {
        failure = failure == null ? e : failure;
      }
    }
    if (admin != null) {
      admin.close(ADMIN_CLOSE_TIMEOUT);
    }
    if (failure != null) {
      throw failure;
    }
  }
}
