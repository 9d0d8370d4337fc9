package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.FinalReader;
import io.plumb.driver.MessageListener;
import io.plumb.driver.OpenClients;
import io.plumb.driver.SingleRoleLocator;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeoutException;

/**
 * RabbitMQ over AMQP 0.9.1. A topic is an exchange; each partition is a routing key {@code <p>};
 * each subscription has one queue per partition bound with that key, so partitions are real queues
 * with their own order, and the consumers of a subscription split the queues between them.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.rabbitmq.RabbitMqBenchmarkDriver"})
public final class RabbitMqBenchmarkDriver
    implements BenchmarkDriver, SingleRoleLocator, FinalReader {

  private RabbitMqConfig config;
  private AmqpConnections connections;
  private ManagementApi management;
  private Connection adminConnection;
  private AmqpTopics topics;
  private final OpenClients clients = new OpenClients();
  private final Map<String, String> facts = new LinkedHashMap<>();
  private ClusterView cluster;
  private final ExecutorService executor =
      Executors.newCachedThreadPool(DaemonThreads.named("plumb-rabbitmq-admin"));
  // Fails publishes left unconfirmed too long, and resubscribes consumers the broker cancelled.
  private final ScheduledExecutorService timers =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("plumb-rabbitmq-timer"));

  /** How long {@link #leaderOf} gives each management endpoint to answer. */
  private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(3);

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    DriverSettings settings =
        RabbitMqConfig.withEnvironment(driverConfig.settings(), driverConfig.environment());
    config = RabbitMqConfig.read(settings);
    connections = AmqpConnections.of(settings, config);
    // First contact, before the management API is asked anything: a broker that is not running
    // is told as such, not as a management API problem.
    try {
      adminConnection = connections.openForAdministration("plumb-admin");
    } catch (IOException | TimeoutException e) {
      throw new BrokerUnreachableException(
          settings.file(),
          "RabbitMQ",
          connections.describe(),
          BrokerUnreachableException.describe(e),
          "deploy/local/rabbitmq.sh start",
          "--driver-set amqpUris=amqp://USER:PASSWORD@HOST:PORT or " + RabbitMqConfig.URI_ENV);
    }
    List<URI> endpoints = new ArrayList<>();
    for (String uri : config.managementUris()) {
      try {
        endpoints.add(URI.create(uri));
      } catch (IllegalArgumentException e) {
        throw settings.error("managementUris", "'" + uri + "' is not a URI: " + e.getMessage());
      }
    }
    management =
        new ManagementApi(
            endpoints, connections.username(), connections.password(), connections.virtualHost());
    // Before any queue exists: a file asking for more copies than there are nodes is refused.
    cluster = new ClusterView(management);
    cluster.check(
        settings,
        config.replicas(),
        config.mirroring() != null
            ? "ha-params of a mirroring policy"
            : config.queueType().replicasArgument());
    if (config.mirroring() != null) {
      cluster.checkMirroring(settings, config.mirroring());
    }
    topics = new AmqpTopics(config, adminConnection, management, cluster);
    probeBroker();
  }

  /**
   * Declares a scratch queue of the configured type twice: the broker rejects a re-declaration
   * whose type or durability differ from the queue it holds, so success shows it created exactly
   * what the YAML asks for (and that this broker supports the queue type at all).
   */
  private void probeBroker() throws IOException {
    Object version = adminConnection.getServerProperties().get("version");
    facts.put("rabbitmq.version", String.valueOf(version));
    String probe = "plumb-probe-" + UUID.randomUUID();
    try (Channel channel = adminConnection.createChannel()) {
      topics.declareQueue(channel, probe);
      topics.declareQueue(channel, probe);
      channel.queueDelete(probe);
    } catch (Exception e) {
      throw new IOException(
          "broker refused a " + config.queueType().brokerName() + " queue: " + e.getMessage(), e);
    }
    facts.put("rabbitmq.queueType", config.queueType().brokerName() + " (declared and verified)");
    facts.put("rabbitmq.durableQueues", String.valueOf(topics.durableQueues()));
    facts.put("rabbitmq.messagePersistence", String.valueOf(config.messagePersistence()));
    facts.put("rabbitmq.publisherConfirms", String.valueOf(config.publisherConfirms()));
    // Every queue type carries a message's headers table: a stream queue stores it with the
    // message and hands it back to an AMQP 0.9.1 consumer.
    facts.put(BrokerFactNames.HEADER_METADATA, AmqpHeader.WHERE);
    facts.put(BrokerFactNames.HEADER_METADATA_BYTES, String.valueOf(AmqpHeader.WIRE_BYTES));
    facts.put("rabbitmq.prefetchCount", String.valueOf(config.prefetchCount()));
    facts.put(
        "rabbitmq.queueLeaderLocator",
        config.queueLeaderLocator() == null
            ? "broker default (client-local)"
            : config.queueLeaderLocator().toString());
    if (config.mirroring() != null) {
      facts.put("rabbitmq.mirroring", config.mirroring().describe() + " (policy)");
    }
  }

  /**
   * The driver's own facts, with the cluster's: {@code nodes} and {@code brokerVersion} from
   * initialisation, and once topics exist {@code replicas}, {@code replicaNodes} and {@code
   * rabbitmq.leaders} as the broker reports them for each topic's replication witness, and the
   * client's send and receive windows ({@link AmqpWindows}), which are per partition.
   */
  @Override
  public Map<String, String> brokerFacts() {
    Map<String, String> all = new LinkedHashMap<>(facts);
    if (cluster != null) {
      all.putAll(cluster.facts());
    }
    if (topics != null) {
      all.putAll(new AmqpWindows(config).facts(topics.mostPartitions()));
    }
    return Map.copyOf(all);
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return onAdminThread(
        "create exchange " + topic,
        () -> {
          topics.create(topic, partitions);
          return null;
        });
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return onAdminThread(
        "create producer for " + topic,
        () -> {
          int partitions = topics.partitions(topic);
          AmqpProducer producer =
              new AmqpProducer(
                  connections.open("plumb-producer-" + topic),
                  topic,
                  partitions,
                  channel -> topics.declareExchange(channel, topic, partitions),
                  config,
                  timers);
          clients.add(producer);
          return producer;
        });
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    return onAdminThread(
        "create consumer for " + topic + "/" + subscription,
        () -> {
          SubscriptionGroup group = topics.group(topic, subscription);
          AmqpConsumer consumer =
              new AmqpConsumer(
                  connections.open("plumb-consumer-" + topic + "-" + subscription),
                  listener,
                  config,
                  group,
                  timers,
                  executor);
          clients.add(consumer);
          group.join(consumer);
          return consumer;
        });
  }

  /**
   * Classic and quorum queues outlive their consumers (the driver never declares them exclusive or
   * auto-delete) and report their depth; a stream queue's end is not reported over AMQP 0.9.1 (its
   * declare-ok count is a statistic the broker refreshes every few seconds).
   */
  @Override
  public Optional<String> whyNoFinalRead() {
    return config.queueType() == QueueType.STREAM
        ? Optional.of("RabbitMQ reports no stream queue's end over AMQP 0.9.1")
        : Optional.empty();
  }

  /** What the subscription's partition queues hold, up to their depths when the read starts. */
  @Override
  public String readToEnd(String topic, String subscription, MessageListener sink, Duration timeout)
      throws Exception {
    requireFinalRead();
    Connection connection = connections.open("plumb-final-read-" + topic + "-" + subscription);
    try {
      return QueueFinalRead.read(
          connection, topic, subscription, topics.partitions(topic), sink, timeout);
    } finally {
      connection.abort();
    }
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> names) {
    return onAdminThread(
        "delete topics " + names,
        () -> {
          topics.delete(names);
          return null;
        });
  }

  /**
   * Runs {@code task} on the admin executor, off the caller's thread. A failure completes the
   * future with what could not be done ({@code "cannot " + what}) and the cause, in one line the
   * run reports.
   */
  private <T> CompletableFuture<T> onAdminThread(String what, Callable<T> task) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return task.call();
          } catch (Exception e) {
            throw new IllegalStateException("cannot " + what + ": " + e, e);
          }
        },
        executor);
  }

  @Override
  public void close() throws Exception {
    Exception first = clients.closeAll();
    if (topics != null) {
      try {
        topics.removeMirroringPolicies();
      } catch (IOException | InterruptedException e) {
        first = first == null ? e : first;
      }
    }
    if (adminConnection != null && adminConnection.isOpen()) {
      adminConnection.close();
    }
    executor.shutdownNow();
    timers.shutdownNow();
    if (first != null) {
      throw first;
    }
  }

  /**
   * The node leading the topic's first queue (partition 0 of its first subscription, by name) as
   * the management API reports it: a quorum queue's Raft leader, a stream queue's leader, a classic
   * queue's node. Every node of {@code managementUris} is asked in turn until one answers.
   */
  @Override
  public Optional<String> leaderOf(String topic) throws Exception {
    Optional<String> queue = topics.firstQueue(topic);
    if (queue.isEmpty()) {
      return Optional.empty();
    }
    return management.leader(queue.get(), LEADER_TIMEOUT);
  }

  /**
   * The node leading the topic's first queue, worded as what leads a queue of this file's type, and
   * its followers: the other nodes.
   */
  @Override
  public Role role() {
    String leader =
        switch (config.queueType()) {
          case QUORUM -> "quorum queue leader";
          case STREAM -> "stream leader";
          case CLASSIC -> "node of the classic queue";
        };
    return new Role("leader", leader, "nodes but the " + leader);
  }

  RabbitMqConfig config() {
    return config;
  }
}
