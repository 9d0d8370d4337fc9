package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.plumb.driver.ClientWindow;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The topics of {@link RabbitMqBenchmarkDriver} on the broker: each topic's exchange, its partition
 * count, and each subscription's partition queues, declared, found and deleted over the driver's
 * administrative connection. Queues are declared as the file asks (type, durability, replicas).
 */
final class AmqpTopics {

  /** Exchange argument recording the partition count, for workers that did not create the topic. */
  static final String PARTITIONS_ARGUMENT = "x-plumb-partitions";

  private final RabbitMqConfig config;
  private final Connection adminConnection;
  private final ManagementApi management;
  private final ClusterView cluster;
  private final MirroringPolicies mirroringPolicies;
  private final Map<String, Integer> partitionsByTopic = new ConcurrentHashMap<>();
  private final Map<String, SubscriptionGroup> groups = new ConcurrentHashMap<>();

  AmqpTopics(
      RabbitMqConfig config,
      Connection adminConnection,
      ManagementApi management,
      ClusterView cluster) {
    this.config = config;
    this.adminConnection = adminConnection;
    this.management = management;
    this.cluster = cluster;
    this.mirroringPolicies =
        config.mirroring() == null ? null : new MirroringPolicies(management, config.mirroring());
  }

  /**
   * The run's queues whose leaders are read back for the result, at most: each costs a request to
   * the management API, and a thousand show the spread as well as a million would.
   */
  private static final int LEADERS_READ_AT_MOST = 1_000;

  /** How long the management API gets to name one queue's leader. */
  private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(3);

  boolean durableQueues() {
    return config.durable() || config.queueType().alwaysDurable();
  }

  void declareQueue(Channel channel, String queue) throws IOException {
    channel.queueDeclare(queue, durableQueues(), false, false, config.queueArguments());
  }

  /**
   * Declares the topic's exchange and records its partition count and replication; with mirroring,
   * first applies the policy that mirrors the topic's queues.
   */
  void create(String topic, int partitions) throws Exception {
    if (mirroringPolicies != null) {
      mirroringPolicies.applyFor(topic);
    }
    try (Channel channel = adminConnection.createChannel()) {
      declareExchange(channel, topic, partitions);
      partitionsByTopic.put(topic, partitions);
      readReplication(channel, topic);
    }
  }

  /**
   * Declares the topic's exchange, a no-op while it exists. Producers and consumers declare it too,
   * on their own connections: a transient exchange ({@code durable: false}) is gone once every node
   * has restarted, and the client's recovery declares again what its connection declared, exchanges
   * before the queues bound to them.
   */
  void declareExchange(Channel channel, String topic, int partitions) throws IOException {
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
      int expected =
          config.mirroring() == null
              ? 1
              : config.mirroring().expectedCopies(cluster.runningNodeCount());
      cluster.record(witness, expected);
    } finally {
      channel.queueDelete(witness);
    }
  }

  /** The most partitions of any topic this driver knows now; 0 while it knows none. */
  int mostPartitions() {
    return ClientWindow.mostPartitions(partitionsByTopic);
  }

  int partitions(String topic) throws Exception {
    Integer known = partitionsByTopic.get(topic);
    if (known != null) {
      return known;
    }
    // Another worker created the topic: read the count back from the exchange's arguments.
    int discovered = management.exchangeIntArgument(topic, PARTITIONS_ARGUMENT);
    partitionsByTopic.put(topic, discovered);
    return discovered;
  }

  /** The subscription's group, declaring and binding its partition queues the first time. */
  SubscriptionGroup group(String topic, String subscription) throws Exception {
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
      recordLeaders(group.queues());
      groups.put(id, group);
      return group;
    }
  }

  /**
   * Reads back which node leads each of the subscription's queues (while fewer than {@link
   * #LEADERS_READ_AT_MOST} are known), so the result shows how the broker spread them.
   */
  private void recordLeaders(List<String> queues) throws IOException, InterruptedException {
    if (!cluster.readable()) {
      return;
    }
    for (String queue : queues) {
      if (cluster.leadersRecorded() >= LEADERS_READ_AT_MOST) {
        return;
      }
      Optional<String> leader = management.leader(queue, LEADER_TIMEOUT);
      if (leader.isPresent()) {
        cluster.recordLeader(queue, leader.get());
      }
    }
  }

  /** Deletes the topics' exchanges and their subscriptions' queues, and their mirroring policy. */
  void delete(List<String> topics) throws Exception {
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
    }
    if (mirroringPolicies != null) {
      mirroringPolicies.removeFor(topics);
    }
  }

  /** Removes the mirroring policies still applied (the driver closes without deleting topics). */
  void removeMirroringPolicies() throws IOException, InterruptedException {
    if (mirroringPolicies != null) {
      mirroringPolicies.removeAll();
    }
  }

  /** Partition 0's queue of the topic's first subscription: this driver's, else the broker's. */
  Optional<String> firstQueue(String topic) throws Exception {
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
}
