package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * RabbitMQ over AMQP 0.9.1. A topic is an exchange; each partition is a routing key {@code <p>};
 * each subscription has one queue per partition bound with that key, so partitions are real queues
 * with their own order, and the consumers of a subscription split the queues between them.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.rabbitmq.RabbitMqBenchmarkDriver"})
public final class RabbitMqBenchmarkDriver implements BenchmarkDriver {

  /** Exchange argument recording the partition count, for workers that did not create the topic. */
  static final String PARTITIONS_ARGUMENT = "x-plumb-partitions";

  private RabbitMqConfig config;
  private final List<ConnectionFactory> factories = new ArrayList<>();
  private final AtomicInteger nextFactory = new AtomicInteger();
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

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    DriverSettings settings =
        RabbitMqConfig.withEnvironment(driverConfig.settings(), System.getenv());
    config = RabbitMqConfig.read(settings);
    for (String uri : config.amqpUris()) {
      ConnectionFactory factory = new ConnectionFactory();
      try {
        factory.setUri(uri);
      } catch (Exception e) {
        throw settings.error("amqpUris", "'" + uri + "' is not an AMQP URI: " + e.getMessage());
      }
      // Benchmarks want failures visible, not hidden behind reconnects.
      factory.setAutomaticRecoveryEnabled(false);
      factories.add(factory);
    }
    // Before any queue exists: a file asking for more copies than there are nodes is refused.
    cluster = new ClusterView(new ManagementApi(factories.get(0)));
    cluster.check(settings, config.replicas(), config.queueType().replicasArgument());
    adminConnection = newConnection("plumb-admin");
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

  private Connection newConnection(String name) throws Exception {
    ConnectionFactory factory =
        factories.get(Math.floorMod(nextFactory.getAndIncrement(), factories.size()));
    return factory.newConnection(name);
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
            BuiltinExchangeType type =
                config.exchangeType() == ExchangeType.TOPIC
                    ? BuiltinExchangeType.TOPIC
                    : BuiltinExchangeType.DIRECT;
            channel.exchangeDeclare(
                topic,
                type,
                config.durable(),
                false,
                false,
                Map.of(PARTITIONS_ARGUMENT, partitions));
            partitionsByTopic.put(topic, partitions);
            readReplication(channel, topic);
          } catch (Exception e) {
            throw new IllegalStateException("cannot create exchange " + topic + ": " + e, e);
          }
        },
        executor);
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
    int discovered =
        new ManagementApi(factories.get(0)).exchangeIntArgument(topic, PARTITIONS_ARGUMENT);
    partitionsByTopic.put(topic, discovered);
    return discovered;
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            AmqpProducer producer =
                new AmqpProducer(
                    newConnection("plumb-producer-" + topic), topic, partitions(topic), config);
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
                    newConnection("plumb-consumer-" + topic + "-" + subscription),
                    listener,
                    config,
                    group);
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
      SubscriptionGroup group = new SubscriptionGroup(topic, subscription, partitions);
      String[] keys = RoutingKeys.forPartitions(partitions);
      try (Channel channel = adminConnection.createChannel()) {
        for (int p = 0; p < partitions; p++) {
          String queue = group.queues().get(p);
          declareQueue(channel, queue);
          channel.queueBind(queue, topic, keys[p]);
        }
      }
      groups.put(id, group);
      return group;
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
    if (first != null) {
      throw first;
    }
  }

  RabbitMqConfig config() {
    return config;
  }
}
