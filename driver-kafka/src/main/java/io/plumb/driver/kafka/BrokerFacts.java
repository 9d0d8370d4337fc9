package io.plumb.driver.kafka;

import io.plumb.driver.BrokerFactNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Reads back from the broker what decides durability and latency, so a result records the settings
 * really in effect rather than the ones a file asked for.
 */
final class BrokerFacts {

  /** Broker settings that decide when a write is durable or how many copies it has. */
  private static final List<String> BROKER_KEYS =
      List.of(
          "log.flush.interval.messages",
          "log.flush.interval.ms",
          "min.insync.replicas",
          "default.replication.factor",
          "unclean.leader.election.enable");

  /** The topic setting bounding a record batch, so a single record with its framing. */
  private static final String MAX_MESSAGE_BYTES = "max.message.bytes";

  /** Topic settings reported even when the driver file leaves them at the broker's default. */
  private static final List<String> TOPIC_KEYS =
      List.of(
          "flush.messages",
          "flush.ms",
          "min.insync.replicas",
          "unclean.leader.election.enable",
          MAX_MESSAGE_BYTES);

  /**
   * What a record of one message adds around its body, at most: the batch header (61 bytes), the
   * record's own framing (21 bytes at most, varints at their longest) and its key (Plumb's keys are
   * 10 bytes), rounded up; the producer refuses a record whose estimated size with these is above
   * max.request.size, and the broker a batch above max.message.bytes.
   */
  static final int RECORD_FRAMING_BYTES = 100;

  private static final long TIMEOUT_SECONDS = 10;

  /**
   * Kafka tells clients no software version; the closest it reports is the metadata version the
   * cluster runs (a level each release raises), under this feature name.
   */
  private static final String METADATA_VERSION = "metadata.version";

  private BrokerFacts() {}

  /**
   * @param topics the topics this run created (none yet before the run): their replicas are counted
   *     and the settings of one of them are read back
   * @param validatedTopicConfig the settings the broker said a topic would get when it validated
   *     the driver file's topic settings, reported while no topic exists yet
   */
  static Map<String, String> read(
      Admin admin, KafkaSettings settings, Set<String> topics, Config validatedTopicConfig) {
    Map<String, String> facts = new TreeMap<>();
    ProducerConfig producer = new ProducerConfig(settings.producer());
    String acks = producer.getString(ProducerConfig.ACKS_CONFIG);
    facts.put("producer.acks", acks.equals("-1") ? "all" : acks);
    facts.put(
        "producer.enable.idempotence",
        String.valueOf(producer.getBoolean(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)));
    facts.put(
        "producer.linger.ms", String.valueOf(producer.getLong(ProducerConfig.LINGER_MS_CONFIG)));
    facts.put(
        "producer.batch.size", String.valueOf(producer.getInt(ProducerConfig.BATCH_SIZE_CONFIG)));
    facts.put(
        "producer.compression.type", producer.getString(ProducerConfig.COMPRESSION_TYPE_CONFIG));
    facts.put(
        "topic.replicationFactor",
        settings.replicationFactor().map(String::valueOf).orElse("broker default"));
    settings.topicConfig().forEach((key, value) -> facts.put("topicConfig." + key, value));
    facts.put(BrokerFactNames.HEADER_METADATA, KafkaHeader.WHERE);
    facts.put(BrokerFactNames.HEADER_METADATA_BYTES, String.valueOf(KafkaHeader.WIRE_BYTES));

    int partitions = 0;
    try {
      DescribeClusterResult cluster = admin.describeCluster();
      Collection<Node> nodes = cluster.nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      facts.put("broker.count", String.valueOf(nodes.size()));
      facts.put(BrokerFactNames.NODES, String.valueOf(nodes.size()));
      facts.put(BrokerFactNames.BROKER_VERSION, metadataVersion(admin));
      facts.put("broker.clusterId", cluster.clusterId().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
      Node controller = cluster.controller().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      Node anyBroker = controller != null && !controller.isEmpty() ? controller : first(nodes);
      List<ConfigResource> resources = new ArrayList<>();
      ConfigResource brokerResource =
          new ConfigResource(ConfigResource.Type.BROKER, anyBroker.idString());
      resources.add(brokerResource);
      Optional<String> topic = topics.stream().sorted().findFirst();
      ConfigResource topicResource =
          topic.map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).orElse(null);
      if (topicResource != null) {
        resources.add(topicResource);
      }
      Map<ConfigResource, Config> configs =
          admin.describeConfigs(resources).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      putAll(facts, "broker.", configs.get(brokerResource), BROKER_KEYS);
      List<String> topicKeys = new ArrayList<>(TOPIC_KEYS);
      topicKeys.addAll(settings.topicConfig().keySet());
      Config topicConfig = null;
      if (topicResource != null) {
        facts.put("topic.readBackFrom", topic.get());
        topicConfig = configs.get(topicResource);
      } else if (validatedTopicConfig != null) {
        facts.put("topic.readBackFrom", "the broker's validation of the topic settings");
        topicConfig = validatedTopicConfig;
      }
      putAll(facts, "topic.", topicConfig, topicKeys);
      putMessageLimit(facts, producer, topicConfig);
      if (!topics.isEmpty()) {
        Collection<TopicDescription> described =
            admin
                .describeTopics(topics)
                .allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .values();
        putReplicas(facts, described);
        partitions = KafkaWindows.mostPartitions(described);
      }
    } catch (Exception e) {
      // Facts are informative: a broker that refuses describeConfigs must not fail the run,
      // but the result says that the read-back did not happen.
      facts.put("readBackError", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    // The windows are the client's own settings: reported even when the read-back failed.
    facts.putAll(KafkaWindows.facts(producer, settings.consumer(), partitions));
    return facts;
  }

  /**
   * The largest message body the run can send: the producer's max.request.size and the topic's
   * max.message.bytes (the broker's message.max.bytes unless the file sets it), whichever is
   * smaller, less the record's framing; with the setting to raise in the fact beside it.
   */
  private static void putMessageLimit(
      Map<String, String> facts, ProducerConfig producer, Config topicConfig) {
    int request = producer.getInt(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
    ConfigEntry topicMax = topicConfig == null ? null : topicConfig.get(MAX_MESSAGE_BYTES);
    long topicBytes;
    try {
      topicBytes = topicMax == null ? Long.MAX_VALUE : Long.parseLong(topicMax.value());
    } catch (NumberFormatException e) {
      topicBytes = Long.MAX_VALUE;
    }
    String producerSide = "producer max.request.size " + request;
    String topicSide =
        topicMax == null
            ? null
            : "topic max.message.bytes "
                + topicBytes
                + (topicMax.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG
                    ? ""
                    : " (the broker's message.max.bytes)");
    long limit = Math.min(request, topicBytes) - RECORD_FRAMING_BYTES;
    facts.put(BrokerFactNames.MAX_MESSAGE_BYTES, String.valueOf(limit));
    facts.put(
        BrokerFactNames.MAX_MESSAGE_BYTES_LIMIT,
        (topicSide == null ? producerSide : producerSide + " and " + topicSide)
            + ", less "
            + RECORD_FRAMING_BYTES
            + " bytes of record and batch framing; raise both, e.g. --driver-set"
            + " max.request.size=N --driver-set topicConfig.max.message.bytes=N");
  }

  /**
   * The copies of the run's partitions as the broker describes them: {@code replicas} is the fewest
   * any partition has (with {@code replicas.range} when partitions differ), {@code replicaNodes}
   * the ids of the brokers holding any of them.
   */
  private static void putReplicas(Map<String, String> facts, Collection<TopicDescription> topics) {
    IntSummaryStatistics copies = new IntSummaryStatistics();
    Set<Integer> holders = new TreeSet<>();
    for (TopicDescription topic : topics) {
      for (TopicPartitionInfo partition : topic.partitions()) {
        copies.accept(partition.replicas().size());
        partition.replicas().forEach(node -> holders.add(node.id()));
      }
    }
    if (copies.getCount() == 0) {
      return;
    }
    facts.put(BrokerFactNames.REPLICAS, String.valueOf(copies.getMin()));
    if (copies.getMin() != copies.getMax()) {
      facts.put(
          "replicas.range",
          copies.getMin() + " to " + copies.getMax() + " copies: partitions differ");
    }
    facts.put(
        BrokerFactNames.REPLICA_NODES,
        holders.stream().map(String::valueOf).collect(Collectors.joining(",")));
  }

  /**
   * The cluster's finalized metadata version, e.g. "metadata.version 27"; "unknown" from a broker
   * without features (before Kafka 2.7), whose other facts are still read.
   */
  private static String metadataVersion(Admin admin) throws Exception {
    FinalizedVersionRange level;
    try {
      level =
          admin
              .describeFeatures()
              .featureMetadata()
              .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .finalizedFeatures()
              .get(METADATA_VERSION);
    } catch (ExecutionException e) {
      return "unknown (" + e.getCause().getClass().getSimpleName() + ")";
    }
    return level == null ? "unknown" : METADATA_VERSION + " " + level.maxVersionLevel();
  }

  private static void putAll(
      Map<String, String> facts, String prefix, Config config, Collection<String> keys) {
    if (config == null) {
      return;
    }
    for (String key : keys) {
      ConfigEntry entry = config.get(key);
      if (entry != null) {
        facts.put(prefix + key, entry.value() + " (" + entry.source() + ")");
      }
    }
  }

  private static Node first(Collection<Node> nodes) {
    if (nodes.isEmpty()) {
      throw new IllegalStateException("the cluster reports no brokers");
    }
    return nodes.iterator().next();
  }
}
