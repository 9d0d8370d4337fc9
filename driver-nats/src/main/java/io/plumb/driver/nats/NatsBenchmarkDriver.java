package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Consumer;
import io.nats.client.ErrorListener;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.ClusterInfo;
import io.nats.client.api.Replica;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.LeaderLocator;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * <p>Faults: both connections use jnats's own recovery (see {@link #connect}): they notice a dead,
 * frozen or cut-off server within seconds and reconnect to another server of the list without
 * limit. A JetStream publish awaiting its ack fails at once when the publishing connection loses
 * its server, and otherwise once the client's request timeout passes, so each send completes
 * exactly once, acknowledged or failed, within a bounded time. Pull consumers ask again when their
 * pull's heartbeats stop (see {@link JetStreamConsumer}). As a {@link LeaderLocator} the driver
 * names the server that leads a topic's stream, as the server says.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.nats.NatsBenchmarkDriver"})
public final class NatsBenchmarkDriver implements BenchmarkDriver, LeaderLocator {

  /**
   * How often each connection pings its server, and how many pings may go unanswered before the
   * client drops the connection and reconnects elsewhere: a server frozen (SIGSTOP) or cut off is
   * noticed within 3 to 5 s (a killed one at once, by its closed socket), where jnats's default (2
   * minutes, 2 pings) would leave a connection on a frozen server for 4 minutes.
   */
  static final Duration PING_INTERVAL = Duration.ofSeconds(1);

  static final int MAX_PINGS_OUT = 3;

  /**
   * A request (a JetStream publish awaiting its ack, an API call) not answered within this fails;
   * jnats checks every interval, so an unanswered publish fails 5 to 10 s after it was sent. This
   * is jnats's default, written here because it bounds how long a send can stay pending.
   */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  /** Pause after trying every server of the list before trying them again. */
  static final Duration RECONNECT_WAIT = Duration.ofSeconds(1);

  /** Bounds each connection attempt, so a server whose traffic is dropped costs 2 s, not more. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

  /** Environment variable that overrides {@code natsHostUrl} of the file. */
  public static final String URL_ENV = NatsDriverConfig.URL_ENV;

  private final Map<String, String> environment;
  private NatsDriverConfig config;
  private Connection publishConnection;
  private Connection consumeConnection;
  private JetStream jetStream;
  private JetStreamManagement management;
  private final Map<String, Integer> partitionsByTopic = new ConcurrentHashMap<>();
  private final Map<Consumer, MessageListener> slowConsumerListeners = new ConcurrentHashMap<>();
  private final Map<String, String> facts = new ConcurrentHashMap<>();
  private final Set<String> createdStreams = ConcurrentHashMap.newKeySet();
  private final Set<JetStreamProducer> producers = ConcurrentHashMap.newKeySet();

  public NatsBenchmarkDriver() {
    this(System.getenv());
  }

  /** For tests: the environment the driver reads {@value #URL_ENV} from. */
  NatsBenchmarkDriver(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    config = NatsDriverConfig.read(driverConfig.settings(), environment);
    try {
      publishConnection = connect("plumb-publish");
      consumeConnection = connect("plumb-consume");
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
    facts.put("nats.server.version", publishConnection.getServerInfo().getVersion());
    facts.put(
        "nats.server.jetstream",
        String.valueOf(publishConnection.getServerInfo().isJetStreamAvailable()));
    if (config.mode() == NatsDriverConfig.Mode.JETSTREAM) {
      if (!publishConnection.getServerInfo().isJetStreamAvailable()) {
        close();
        throw new DriverConfigException(
            driverConfig.file()
                + ": mode 'jetstream' needs JetStream, which the server at "
                + config.natsHostUrl()
                + " does not enable (start nats-server with -js)");
      }
      refuseMoreCopiesThanNodes(driverConfig);
      jetStream = publishConnection.jetStream();
      management = publishConnection.jetStreamManagement();
      facts.put("nats.jetstream.storage", config.storageType().toString());
      facts.put("nats.jetstream.replicas", String.valueOf(config.replicationFactor()));
      facts.put("nats.jetstream.consumerType", config.consumerType().toString());
    }
  }

  /**
   * Nodes of the cluster the server belongs to, as the server tells clients: its INFO lists the
   * client URL of every server in the cluster (its own included), and nothing when it is alone.
   */
  private int nodes() {
    List<String> urls = publishConnection.getServerInfo().getConnectURLs();
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
    close();
    throw driverConfig
        .settings()
        .error(
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
   * One connection to the cluster, with jnats's own recovery: it knows every server of {@code
   * natsHostUrl} (and those the server announces), reconnects without limit when its server goes
   * away, keeps publishes made meanwhile in its reconnect buffer (8 MiB) and resubscribes; a
   * publish that does not fit fails at once. See the constants above for how fast it notices.
   */
  private Connection connect(String name) throws java.io.IOException, InterruptedException {
    Options options =
        new Options.Builder()
            .servers(config.servers())
            .connectionName(name)
            .connectionTimeout(CONNECT_TIMEOUT)
            .maxReconnects(-1)
            .reconnectWait(RECONNECT_WAIT)
            .pingInterval(PING_INTERVAL)
            .maxPingsOut(MAX_PINGS_OUT)
            .requestCleanupInterval(REQUEST_TIMEOUT)
            .errorListener(new SlowConsumerReporter())
            .connectionListener(this::connectionEvent)
            .build();
    return Nats.connect(options);
  }

  /**
   * When the publishing connection loses its server, the acks of the JetStream publishes sent on it
   * can no longer come: their sends fail now rather than at jnats's request timeout, so send()
   * waiting for a free slot is not held up by them.
   */
  private void connectionEvent(Connection connection, ConnectionListener.Events event) {
    if ((event == ConnectionListener.Events.DISCONNECTED
            || event == ConnectionListener.Events.CLOSED)
        && connection == publishConnection) {
      java.io.IOException cause =
          new java.io.IOException(
              "NATS connection lost ("
                  + event.getEvent()
                  + ") before the publish was acknowledged");
      for (JetStreamProducer producer : producers) {
        producer.failOutstanding(cause);
      }
    }
  }

  /** Tells a core consumer's listener that the client dropped its messages (slow consumer). */
  private final class SlowConsumerReporter implements ErrorListener {
    @Override
    public void slowConsumerDetected(Connection conn, Consumer consumer) {
      MessageListener listener = slowConsumerListeners.get(consumer);
      if (listener != null) {
        listener.failed(
            new IllegalStateException(
                "NATS slow consumer: the client dropped "
                    + consumer.getDroppedCount()
                    + " messages so far (pending limit reached)"));
      }
    }
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
      String stream = Subjects.name(topic);
      StreamConfiguration.Builder builder =
          StreamConfiguration.builder()
              .name(stream)
              .subjects(Subjects.wildcard(topic))
              // The partition count travels with the stream so producers in other workers find it.
              .description(PARTITIONS_PREFIX + partitions)
              .storageType(
                  config.storageType() == NatsDriverConfig.Storage.MEMORY
                      ? StorageType.Memory
                      : StorageType.File)
              .replicas(config.replicationFactor())
              .maxBytes(config.maxBytes())
              .maxMessages(config.maxMessages());
      if (config.maxAgeSeconds() > 0) {
        builder.maxAge(Duration.ofSeconds(config.maxAgeSeconds()));
      }
      StreamInfo info = management.addStream(builder.build());
      verify(stream, info.getConfiguration());
      createdStreams.add(stream);
      return CompletableFuture.completedFuture(null);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static final String PARTITIONS_PREFIX = "plumb partitions=";

  /** Reads back what the server stored for the stream and fails if it is not what was asked. */
  private void verify(String stream, StreamConfiguration stored) {
    String storage = stored.getStorageType() == StorageType.Memory ? "memory" : "file";
    if (!storage.equals(config.storageType().toString())
        || stored.getReplicas() != config.replicationFactor()) {
      throw new IllegalStateException(
          "stream "
              + stream
              + " has storage "
              + storage
              + " and "
              + stored.getReplicas()
              + " replicas on the server, not "
              + config.storageType()
              + " and "
              + config.replicationFactor()
              + " as configured");
    }
    facts.put("nats.stream." + stream + ".storage", storage);
    facts.put("nats.stream." + stream + ".replicas", String.valueOf(stored.getReplicas()));
  }

  /**
   * Partitions of a topic this driver created, else (JetStream) the count recorded with the stream.
   */
  private int partitions(String topic) throws Exception {
    Integer known = partitionsByTopic.get(topic);
    if (known != null) {
      return known;
    }
    if (config.mode() == NatsDriverConfig.Mode.JETSTREAM) {
      String description =
          management.getStreamInfo(Subjects.name(topic)).getConfiguration().getDescription();
      if (description != null && description.startsWith(PARTITIONS_PREFIX)) {
        int n = Integer.parseInt(description.substring(PARTITIONS_PREFIX.length()));
        partitionsByTopic.put(topic, n);
        return n;
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
            new CoreNatsProducer(publishConnection, topic, partitions));
      }
      JetStreamProducer producer =
          new JetStreamProducer(
              jetStream, topic, partitions, config.maxOutstandingPublishes(), producers::remove);
      producers.add(producer);
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
                consumeConnection, topic, subscription, config.subscriberPendingBytes(), listener);
        slowConsumerListeners.put(consumer.dispatcher(), listener);
        return CompletableFuture.completedFuture(
            () -> {
              slowConsumerListeners.remove(consumer.dispatcher());
              consumer.close();
            });
      }
      return CompletableFuture.completedFuture(
          JetStreamConsumer.start(
              consumeConnection,
              consumeConnection.jetStream(),
              management,
              topic,
              subscription,
              config,
              listener));
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
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
      for (String topic : topics) {
        try {
          createdStreams.remove(Subjects.name(topic));
          management.deleteStream(Subjects.name(topic));
        } catch (JetStreamApiException e) {
          if (e.getApiErrorCode() != STREAM_NOT_FOUND) {
            throw e;
          }
        }
      }
      return CompletableFuture.completedFuture(null);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static final int STREAM_NOT_FOUND = 10059;

  /**
   * The facts gathered at initialize, plus what the server says now: its version, the cluster's
   * node count and where the copies of this run's streams are.
   */
  @Override
  public Map<String, String> brokerFacts() {
    Map<String, String> answer = new TreeMap<>(facts);
    if (publishConnection != null) {
      answer.put(BrokerFactNames.NODES, String.valueOf(nodes()));
      answer.put(BrokerFactNames.BROKER_VERSION, publishConnection.getServerInfo().getVersion());
    }
    answer.putAll(replication());
    return answer;
  }

  /**
   * Where the server says the copies of this run's streams are: per stream its leader and the nodes
   * holding it, and over all streams the fewest copies any stream has and every node that holds
   * one. Read from the server each time (a leader may move); empty before any stream exists.
   */
  private Map<String, String> replication() {
    Map<String, String> found = new TreeMap<>();
    if (management == null || createdStreams.isEmpty()) {
      return found;
    }
    int fewest = Integer.MAX_VALUE;
    Set<String> allNodes = new TreeSet<>();
    for (String stream : new TreeSet<>(createdStreams)) {
      StreamInfo info;
      try {
        info = management.getStreamInfo(stream);
      } catch (Exception e) {
        // Deleted since (deleteTopics), or the server is unreachable: nothing to report for it.
        continue;
      }
      List<String> holders = holders(info.getClusterInfo());
      fewest = Math.min(fewest, holders.size());
      allNodes.addAll(holders);
      ClusterInfo cluster = info.getClusterInfo();
      // A stream on a server outside any cluster has no election: that server is its leader.
      String leader =
          cluster == null
              ? publishConnection.getServerInfo().getServerName()
              : Objects.requireNonNullElse(cluster.getLeader(), "");
      found.put("nats.stream." + stream + ".leader", leader);
      found.put("nats.stream." + stream + ".replicaNodes", String.join(",", holders));
    }
    if (fewest != Integer.MAX_VALUE) {
      found.put(BrokerFactNames.REPLICAS, String.valueOf(fewest));
      found.put(BrokerFactNames.REPLICA_NODES, String.join(",", allNodes));
    }
    return found;
  }

  /**
   * The servers holding a stream: its leader, then its other replicas, as the server names them. A
   * server outside any cluster reports no cluster information: the stream is on that server alone.
   */
  private List<String> holders(ClusterInfo cluster) {
    List<String> names = new java.util.ArrayList<>();
    if (cluster == null) {
      names.add(publishConnection.getServerInfo().getServerName());
      return names;
    }
    if (cluster.getLeader() != null && !cluster.getLeader().isEmpty()) {
      names.add(cluster.getLeader());
    }
    if (cluster.getReplicas() != null) {
      for (Replica replica : cluster.getReplicas()) {
        names.add(replica.getName());
      }
    }
    return names;
  }

  /**
   * The server leading the topic's stream now, as the cluster names it (its {@code server_name},
   * e.g. {@code n2}), from the stream's cluster information; a server outside any cluster leads its
   * streams itself. Empty while the stream has no leader: an election under way, or the request
   * unanswered because the server this connection uses went away (it reconnects meanwhile).
   */
  @Override
  public Optional<String> leaderOf(String topic) throws Exception {
    if (config.mode() == NatsDriverConfig.Mode.CORE) {
      throw new UnsupportedOperationException(
          "core NATS keeps no stream, so no server leads a topic: use a JetStream file");
    }
    StreamInfo info;
    try {
      info = management.getStreamInfo(Subjects.name(topic));
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == STREAM_NOT_FOUND) {
        throw e;
      }
      // For example "JetStream system temporarily unavailable" during an election.
      return Optional.empty();
    } catch (IOException e) {
      // No answer in time: the stream or the connection is between servers.
      return Optional.empty();
    }
    ClusterInfo cluster = info.getClusterInfo();
    if (cluster == null) {
      return Optional.of(publishConnection.getServerInfo().getServerName());
    }
    String leader = cluster.getLeader();
    return leader == null || leader.isBlank() ? Optional.empty() : Optional.of(leader);
  }

  @Override
  public String leaderMeaning() {
    return "stream leader";
  }

  /** The parsed driver file, after overrides (for tests and diagnostics). */
  NatsDriverConfig config() {
    return config;
  }

  /** The management API on the publishing connection (JetStream mode only), for tests. */
  JetStreamManagement management() {
    return management;
  }

  @Override
  public void close() throws Exception {
    Connection pub = publishConnection;
    Connection sub = consumeConnection;
    publishConnection = null;
    consumeConnection = null;
    if (pub != null) {
      // Let queued publishes reach the server before closing.
      try {
        pub.flush(Duration.ofSeconds(5));
      } catch (Exception ignored) {
        // Closing anyway; a failed flush means the server is gone.
      }
      pub.close();
    }
    if (sub != null) {
      sub.close();
    }
  }
}
