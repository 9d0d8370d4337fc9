package io.plumb.driver.nats;

import static java.util.stream.Collectors.joining;

import io.nats.client.JetStream;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.FinalReader;
import io.plumb.driver.LeaderLocator;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SingleRoleLocator;
import io.plumb.driver.nats.NatsDriverConfig.Sync;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * NATS driver: core NATS (no persistence, the lossy baseline) or JetStream (a stream per topic),
 * chosen by the driver file's {@code mode}. A topic's partitions are the subjects {@code topic.0 ..
 * topic.N-1}; see {@link Subjects}.
 *
 * <p>Publishing and consuming use separate connections so that a consumer that falls behind (and,
 * in core mode, the client's slow-consumer handling) never stalls the publishing connection.
 *
 * <p>Faults: both connections use jnats's own recovery (see {@link NatsConnections}): they notice a
 * dead, frozen or cut-off server within seconds and reconnect to another server of the list without
 * limit. A JetStream publish awaiting its ack fails at once when the publishing connection loses
 * its server, and otherwise once the client's request timeout passes, so each send completes
 * exactly once, acknowledged or failed, within a bounded time. Pull consumers ask again when their
 * pull's heartbeats stop (see {@link JetStreamConsumer}). As a {@link LeaderLocator} the driver
 * names the server that leads a topic's stream, as the server says.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.nats.NatsBenchmarkDriver"})
public final class NatsBenchmarkDriver implements BenchmarkDriver, SingleRoleLocator, FinalReader {

  /** Environment variable that overrides {@code natsHostUrl} of the file. */
  public static final String URL_ENV = NatsDriverConfig.URL_ENV;

  /** The broker fact with the servers' sync policy as they report it (see {@link ServerSync}). */
  static final String SYNC_FACT = "nats.server.sync";

  private NatsDriverConfig config;
  private final PublishAndConsumeConnections connections = new PublishAndConsumeConnections();
  private JetStream jetStream;

  /** The topics' streams, in JetStream mode; null in core mode. */
  private JetStreamTopics streams;

  /** Pauses the consumers' durables for backlog workloads, in JetStream mode; null in core mode. */
  private DurablePauses pauses;

  private final Map<String, Integer> partitionsByTopic = new ConcurrentHashMap<>();
  private final Map<String, String> facts = new ConcurrentHashMap<>();

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    config = NatsDriverConfig.read(driverConfig.settings(), driverConfig.environment());
    try {
      connections.open(config);
    } catch (java.io.IOException e) {
      close();
      throw new BrokerUnreachableException(
          driverConfig.settings().file(),
          "NATS",
          config.natsHostUrl(),
          BrokerUnreachableException.describe(e),
          "deploy/local/nats.sh start",
          "--driver-set natsHostUrl=nats://HOST:PORT or " + URL_ENV);
    }
    facts.put("nats.url", config.natsHostUrl());
    facts.put("nats.mode", config.mode().toString());
    facts.putAll(NatsWindows.facts(config));
    facts.put("nats.server.version", connections.publish().getServerInfo().getVersion());
    facts.put(
        "nats.server.jetstream",
        String.valueOf(connections.publish().getServerInfo().isJetStreamAvailable()));
    // The server refuses a message above its max_payload (header block included; the plain send
    // has none): the run refuses a larger messageSize before any topic exists.
    long maxPayload = connections.publish().getServerInfo().getMaxPayload();
    facts.put(BrokerFactNames.MAX_MESSAGE_BYTES, String.valueOf(maxPayload));
    facts.put(
        BrokerFactNames.MAX_MESSAGE_BYTES_LIMIT,
        "the server's max_payload "
            + maxPayload
            + "; raise max_payload in its configuration (at most 64 MB; 8 MB is the server's"
            + " advice)");
    NatsHeader.addFacts(facts, connections.publish(), connections.consume());
    if (config.mode() == NatsDriverConfig.Mode.JETSTREAM) {
      if (!connections.publish().getServerInfo().isJetStreamAvailable()) {
        close();
        throw new DriverConfigException(
            driverConfig.file()
                + ": mode 'jetstream' needs JetStream, which the server at "
                + config.natsHostUrl()
                + " does not enable (start nats-server with -js)");
      }
      refuseMoreCopiesThanNodes(driverConfig);
      readSync(driverConfig);
      jetStream = connections.publish().jetStream();
      streams =
          new JetStreamTopics(
              connections.publish().jetStreamManagement(),
              config,
              () -> connections.publish().getServerInfo().getServerName());
      pauses = new DurablePauses(streams.management(), () -> connections.publish().getServerInfo());
      facts.put("nats.jetstream.storage", config.storageType().toString());
      facts.put("nats.jetstream.replicas", String.valueOf(config.replicationFactor()));
      facts.put("nats.jetstream.consumerType", config.consumerType().toString());
      facts.putAll(StreamLimits.facts(config));
    }
  }

  /**
   * Nodes of the cluster the server belongs to, as the server tells clients: its INFO lists the
   * client URL of every server in the cluster (its own included), and nothing when it is alone.
   */
  private int nodes() {
    List<String> urls = connections.publish().getServerInfo().getConnectURLs();
    return urls == null || urls.isEmpty() ? 1 : (int) urls.stream().distinct().count();
  }

  /**
   * A stream cannot have more replicas than the cluster has servers: refuse the file now, with one
   * line, rather than let stream creation fail after the run has started.
   */
  private void refuseMoreCopiesThanNodes(DriverConfig driverConfig) throws Exception {
    int nodes = nodes();
    int asked = config.replicationFactor();
    if (asked <= nodes) {
      return;
    }
    throw refuse(
        driverConfig,
        "replicationFactor",
        "asks for "
            + asked
            + " copies but the NATS server at "
            + config.natsHostUrl()
            + " has "
            + nodes
            + (nodes == 1 ? " node" : " nodes")
            + " (start "
            + asked
            + ": deploy/local/nats.sh start --nodes "
            + asked
            + ")");
  }

  /**
   * Closes what initialize opened and returns the one-line refusal of {@code field} to throw: a
   * driver that refuses its file holds no connection.
   */
  private DriverConfigException refuse(DriverConfig driverConfig, String field, String problem)
      throws Exception {
    close();
    return driverConfig.settings().error(field, problem);
  }

  /**
   * Records the servers' sync policy as they report it ({@code nats.server.sync}), and refuses a
   * file whose {@code expectSync} they do not have, with one line, before any stream exists: a run
   * meant to show what fsyncing every write buys must not run on servers that do not.
   */
  private void readSync(DriverConfig driverConfig) throws Exception {
    List<ServerSync.Reading> readings;
    try {
      readings = ServerSync.read(config.monitors());
    } catch (java.io.IOException e) {
      facts.put(SYNC_FACT, "unknown (" + e.getMessage() + ")");
      if (config.expectSync() != null) {
        throw refuse(
            driverConfig,
            "expectSync",
            "expects sync "
                + config.expectSync()
                + " but the servers' sync policy could not be read: "
                + e.getMessage()
                + " (natsMonitorUrl names the servers' monitoring endpoints)");
      }
      return;
    }
    facts.put(SYNC_FACT, ServerSync.describe(readings));
    Sync expected = config.expectSync();
    if (expected == null
        || readings.stream().allMatch(r -> r.policy().equals(expected.toString()))) {
      return;
    }
    int nodes = nodes();
    throw refuse(
        driverConfig,
        "expectSync",
        "expects sync "
            + expected
            + " but the NATS servers at "
            + config.monitors().stream().map(Object::toString).collect(joining(","))
            + " report "
            + ServerSync.describe(readings)
            + " (start them with: deploy/local/nats.sh start"
            + (nodes > 1 ? " --nodes " + nodes : "")
            + " --sync "
            + expected
            + ")");
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    if (partitions < 1) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("partitions must be >= 1, was " + partitions));
    }
    partitionsByTopic.put(topic, partitions);
    if (config.mode() == NatsDriverConfig.Mode.CORE) {
      // Core NATS subjects exist as soon as someone publishes; nothing to create.
      return CompletableFuture.completedFuture(null);
    }
    try {
      streams.create(topic, partitions);
      return CompletableFuture.completedFuture(null);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Partitions of a topic this driver created, else (JetStream) the count recorded with the stream.
   */
  private int partitions(String topic) throws Exception {
    Integer known = partitionsByTopic.get(topic);
    if (known != null) {
      return known;
    }
    if (streams != null) {
      OptionalInt recorded = streams.recordedPartitions(topic);
      if (recorded.isPresent()) {
        partitionsByTopic.put(topic, recorded.getAsInt());
        return recorded.getAsInt();
      }
    }
    // Core NATS keeps no topic state: a producer in another process than createTopic publishes
    // to partition 0 only (consumers still receive everything through the wildcard).
    return 1;
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    try {
      int partitions = partitions(topic);
      if (config.mode() == NatsDriverConfig.Mode.CORE) {
        return CompletableFuture.completedFuture(
            new CoreNatsProducer(connections.publish(), topic, partitions));
      }
      JetStreamProducer producer =
          new JetStreamProducer(
              jetStream, topic, partitions, config.maxOutstandingPublishes(), connections::unwatch);
      connections.watch(producer);
      return CompletableFuture.completedFuture(producer);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    try {
      if (config.mode() == NatsDriverConfig.Mode.CORE) {
        CoreNatsConsumer consumer =
            CoreNatsConsumer.subscribe(
                connections.consume(),
                topic,
                subscription,
                config.subscriberPendingBytes(),
                listener);
        connections.reportSlowConsumer(consumer.dispatcher(), listener);
        return CompletableFuture.completedFuture(
            consumer.beforeClose(
                () -> connections.stopReportingSlowConsumer(consumer.dispatcher())));
      }
      return CompletableFuture.completedFuture(
          JetStreamConsumer.start(
              connections.consume(),
              connections.consume().jetStream(),
              streams.management(),
              topic,
              subscription,
              config,
              pauses,
              listener));
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public Optional<String> whyNoFinalRead() {
    return config.mode() == NatsDriverConfig.Mode.CORE
        ? Optional.of("core NATS keeps no messages")
        : Optional.empty();
  }

  /** The topic's stream from its first sequence to its last, whatever the subscription. */
  @Override
  public String readToEnd(String topic, String subscription, MessageListener sink, Duration timeout)
      throws Exception {
    requireFinalRead();
    return JetStreamFinalRead.read(connections.consume(), topic, sink, timeout);
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    for (String topic : topics) {
      partitionsByTopic.remove(topic);
    }
    if (config.mode() == NatsDriverConfig.Mode.CORE) {
      return CompletableFuture.completedFuture(null);
    }
    try {
      streams.delete(topics);
      return CompletableFuture.completedFuture(null);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The facts gathered at initialize, plus what the server says now: its version, the cluster's
   * node count and where the copies of this run's streams are.
   */
  @Override
  public Map<String, String> brokerFacts() {
    Map<String, String> answer = new TreeMap<>(facts);
    if (connections.publish() != null) {
      answer.put(BrokerFactNames.NODES, String.valueOf(nodes()));
      answer.put(
          BrokerFactNames.BROKER_VERSION, connections.publish().getServerInfo().getVersion());
    }
    if (streams != null) {
      answer.putAll(streams.facts());
    }
    return answer;
  }

  /** The server leading the topic's stream now (see {@link JetStreamTopics#leaderOf}). */
  @Override
  public Optional<String> leaderOf(String topic) throws Exception {
    if (streams == null) {
      throw new UnsupportedOperationException(
          "core NATS keeps no stream, so no server leads a topic: use a JetStream file");
    }
    return streams.leaderOf(topic);
  }

  /** The stream leader, and its followers: the other servers of the cluster. */
  @Override
  public Role role() {
    return new Role("leader", "stream leader", "servers but the stream leader");
  }

  /** The parsed driver file, after overrides (for tests and diagnostics). */
  NatsDriverConfig config() {
    return config;
  }

  @Override
  public void close() throws Exception {
    if (pauses != null) {
      pauses.close();
    }
    connections.close();
  }
}
