package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.FinalReader;
import io.plumb.driver.LeaderLocator;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
public final class RabbitMqBenchmarkDriver implements BenchmarkDriver, LeaderLocator, FinalReader {

  /** Exchange argument recording the partition count, for workers that did not create the topic. */
  static final String PARTITIONS_ARGUMENT = "x-plumb-partitions";

  private RabbitMqConfig config;
  private AmqpConnections connections;
  private ManagementApi management;
  private Connection adminConnection;
  private final Map<String, Integer> partitionsByTopic = new ConcurrentHashMap<>();
  private final Map<String, SubscriptionGroup> groups = new ConcurrentHashMap<>();
  private final List<AutoCloseable> clients = new CopyOnWriteArrayList<>();
  private final Map<String, String> facts = new LinkedHashMap<>();
  private ClusterView cluster;
  private final ExecutorService executor =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "plumb-rabbitmq-admin");
            t.setDaemon(true);
            return t;
          });
  // Fails publishes left unconfirmed too long, and resubscribes consumers the broker cancelled.
  private final ScheduledExecutorService timers =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "plumb-rabbitmq-timer");
            t.setDaemon(true);
            return t;
          });

  /** How long {@link #leaderOf} gives each management endpoint to answer. */
  private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(3);

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    DriverSettings settings =
        RabbitMqConfig.withEnvironment(driverConfig.settings(), System.getenv());
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
    cluster.check(settings, config.replicas(), config.queueType().replicasArgument());
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
      declareQueue(channel, probe);
      declareQueue(channel, probe);
      channel.queueDelete(probe);
    } catch (Exception e) {
      throw new IOException(
          "broker refused a " + config.queueType().brokerName() + " queue: " + e.getMessage(), e);
    }
    facts.put("rabbitmq.queueType", config.queueType().brokerName() + " (declared and verified)");
    facts.put("rabbitmq.durableQueues", String.valueOf(durableQueues()));
    facts.put("rabbitmq.messagePersistence", String.valueOf(config.messagePersistence()));
    facts.put("rabbitmq.publisherConfirms", String.valueOf(config.publisherConfirms()));
    facts.put("rabbitmq.prefetchCount", String.valueOf(config.prefetchCount()));
  }

  private boolean durableQueues() {
    return config.durable() || config.queueType().alwaysDurable();
  }

  private void declareQueue(Channel channel, String queue) throws IOException {
    channel.queueDeclare(
        queue,
        durableQueues(),
        false,
        false,
        config.queueType().declareArguments(config.replicas()));
  }

  /**
   * The driver's own facts, with the cluster's: {@code nodes} and {@code brokerVersion} from
   * initialisation, and once topics exist {@code replicas}, {@code replicaNodes} and {@code
   * rabbitmq.leaders} as the broker reports them for each topic's replication witness.
   */
  @Override
  public Map<String, String> brokerFacts() {
    Map<String, String> all = new LinkedHashMap<>(facts);
    if (cluster != null) {
      all.putAll(cluster.facts());
    }
    return Map.copyOf(all);
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return CompletableFuture.runAsync(
        () -> {
          try (Channel channel = adminConnection.createChannel()) {
            declareExchange(channel, topic, partitions);
            partitionsByTopic.put(topic, partitions);
            readReplication(channel, topic);
          } catch (Exception e) {
            throw new IllegalStateException("cannot create exchange " + topic + ": " + e, e);
          }
        },
        executor);
  }

  /**
   * Declares the topic's exchange, a no-op while it exists. Producers and consumers declare it too,
   * on their own connections: a transient exchange ({@code durable: false}) is gone once every node
   * has restarted, and the client's recovery declares again what its connection declared, exchanges
   * before the queues bound to them.
   */
  private void declareExchange(Channel channel, String topic, int partitions) throws IOException {
    BuiltinExchangeType type =
        config.exchangeType() == ExchangeType.TOPIC
            ? BuiltinExchangeType.TOPIC
            : BuiltinExchangeType.DIRECT;
    channel.exchangeDeclare(
        topic, type, config.durable(), false, false, Map.of(PARTITIONS_ARGUMENT, partitions));
  }

  /**
   * Asks the broker how many copies a queue of this topic gets. The topic's queues are declared
   * when each subscription's first consumer arrives, after the run's facts are read; so a witness
   * queue is declared exactly as they will be (same type, arguments and durability), read back
   * through the management API, and deleted.
   */
  private void readReplication(Channel channel, String topic) throws Exception {
    if (!cluster.readable()) {
      return;
    }
    String witness = topic + ".plumb-replicas";
    declareQueue(channel, witness);
    try {
      cluster.record(witness);
    } finally {
      channel.queueDelete(witness);
    }
  }

  private int partitions(String topic) throws Exception {
    Integer known = partitionsByTopic.get(topic);
    if (known != null) {
      return known;
    }
    // Another worker created the topic: read the count back from the exchange's arguments.
    int discovered = management.exchangeIntArgument(topic, PARTITIONS_ARGUMENT);
    partitionsByTopic.put(topic, discovered);
    return discovered;
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            int partitions = partitions(topic);
            AmqpProducer producer =
                new AmqpProducer(
                    connections.open("plumb-producer-" + topic),
                    topic,
                    partitions,
                    channel -> declareExchange(channel, topic, partitions),
                    config,
                    timers);
            clients.add(producer);
            return producer;
          } catch (Exception e) {
            throw new IllegalStateException("cannot create producer for " + topic + ": " + e, e);
          }
        },
        executor);
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            SubscriptionGroup group = group(topic, subscription);
            AmqpConsumer consumer =
                new AmqpConsumer(
                    connections.open("plumb-consumer-" + topic + "-" + subscription),
                    listener,
                    config,
                    group,
                    timers);
            clients.add(consumer);
            group.join(consumer);
            return consumer;
          } catch (Exception e) {
            throw new IllegalStateException(
                "cannot create consumer for " + topic + "/" + subscription + ": " + e, e);
          }
        },
        executor);
  }

  /** The subscription's group, declaring and binding its partition queues the first time. */
  private SubscriptionGroup group(String topic, String subscription) throws Exception {
    String id = topic + "\u0000" + subscription;
    SubscriptionGroup existing = groups.get(id);
    if (existing != null) {
      return existing;
    }
    synchronized (groups) {
      existing = groups.get(id);
      if (existing != null) {
        return existing;
      }
      int partitions = partitions(topic);
      String[] keys = RoutingKeys.forPartitions(partitions);
      // Each consumer declares the exchange and declares and binds the queue it reads as well (the
      // same declarations, so no-ops while they exist): its connection's recovery then declares
      // them again before it consumes, as does a consumer the broker cancelled because the queue
      // went with its node.
      SubscriptionGroup group =
          new SubscriptionGroup(
              topic,
              subscription,
              partitions,
              (channel, p, queue) -> {
                declareExchange(channel, topic, partitions);
                declareQueue(channel, queue);
                channel.queueBind(queue, topic, keys[p]);
              });
      try (Channel channel = adminConnection.createChannel()) {
        for (int p = 0; p < partitions; p++) {
          group.declare(channel, p);
        }
      }
      groups.put(id, group);
      return group;
    }
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
    Optional<String> why = whyNoFinalRead();
    if (why.isPresent()) {
      throw new IllegalStateException("no final read: " + why.get());
    }
    Connection connection = connections.open("plumb-final-read-" + topic + "-" + subscription);
    try {
      return QueueFinalRead.read(connection, topic, subscription, partitions(topic), sink, timeout);
    } finally {
      connection.abort();
    }
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    return CompletableFuture.runAsync(
        () -> {
          try (Channel channel = adminConnection.createChannel()) {
            for (String topic : topics) {
              for (Map.Entry<String, SubscriptionGroup> e : groups.entrySet()) {
                if (e.getKey().startsWith(topic + "\u0000")) {
                  // Its consumers, cancelled by the deletion, must not declare the queues again.
                  e.getValue().markDeleted();
                  for (String queue : e.getValue().queues()) {
                    channel.queueDelete(queue);
                  }
                  groups.remove(e.getKey());
                }
              }
              channel.exchangeDelete(topic);
              partitionsByTopic.remove(topic);
            }
          } catch (Exception e) {
            throw new IllegalStateException("cannot delete topics " + topics + ": " + e, e);
          }
        },
        executor);
  }

  @Override
  public void close() throws Exception {
    Exception first = null;
    for (AutoCloseable client : clients) {
      try {
        client.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    clients.clear();
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
  Optional<String> leaderOf(String topic) throws Exception {
    Optional<String> queue = firstQueue(topic);
    if (queue.isEmpty()) {
      return Optional.empty();
    }
    return management.leader(queue.get(), LEADER_TIMEOUT);
  }

  /** Partition 0's queue of the topic's first subscription: this driver's, else the broker's. */
  private Optional<String> firstQueue(String topic) throws Exception {
    TreeSet<String> queues = new TreeSet<>();
    for (SubscriptionGroup group : groups.values()) {
      if (group.topic().equals(topic)) {
        queues.add(group.queues().get(0));
      }
    }
    if (queues.isEmpty()) {
      // Consumers on another worker: the broker's queues named <topic>.<subscription>.0.
      for (String name : management.queueNames()) {
        if (name.startsWith(topic + ".") && name.endsWith(".0")) {
          queues.add(name);
        }
      }
    }
    return queues.isEmpty() ? Optional.empty() : Optional.of(queues.first());
  }

  /** The node leading the topic's first queue, and its followers: the other nodes. */
  @Override
  public Map<String, String> targets() {
    String leader = leaderMeaning();
    return Map.of("leader", leader, "followers", "nodes but the " + leader);
  }

  /** What leads a queue of this file's type. */
  String leaderMeaning() {
    return switch (config.queueType()) {
      case QUORUM -> "quorum queue leader";
      case STREAM -> "stream leader";
      case CLASSIC -> "node of the classic queue";
    };
  }

  /** {@code leader} only: see {@link #leaderOf}. */
  @Override
  public Optional<String> locate(String target, String topic) throws Exception {
    if (!target.equals("leader")) {
      throw new IllegalArgumentException("this driver names no " + target);
    }
    return leaderOf(topic);
  }

  RabbitMqConfig config() {
    return config;
  }
}
