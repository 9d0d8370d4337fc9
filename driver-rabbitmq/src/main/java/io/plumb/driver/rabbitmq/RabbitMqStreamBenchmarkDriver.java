package io.plumb.driver.rabbitmq;

import com.rabbitmq.stream.ByteCapacity;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.StreamCreator;
import com.rabbitmq.stream.StreamException;
import com.rabbitmq.stream.impl.Client;
import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.ClientWindow;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.FinalReader;
import io.plumb.driver.MessageListener;
import io.plumb.driver.OpenClients;
import io.plumb.driver.SingleRoleLocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * RabbitMQ's native stream protocol (port 5552). A topic is one stream per partition ({@code
 * <topic>-<p>}); producers confirm per message; each subscription reads every partition from its
 * first offset, its members splitting the partitions between them.
 */
public final class RabbitMqStreamBenchmarkDriver
    implements BenchmarkDriver, SingleRoleLocator, FinalReader {

  private RabbitMqStreamConfig config;
  private Environment environment;
  private final Map<String, Integer> partitionsByTopic = new ConcurrentHashMap<>();
  private final Map<String, StreamSubscriptionGroup> groups = new ConcurrentHashMap<>();
  private final OpenClients clients = new OpenClients();
  private final Map<String, String> facts = new LinkedHashMap<>();
  private ClusterView cluster;
  private ManagementApi management;

  /** How long a new stream's replicas may take to start before the facts report fewer. */
  private static final Duration REPLICAS_TIMEOUT = Duration.ofSeconds(30);

  /** The stream argument {@link RabbitMqStreamConfig#replicas()} sets, for messages. */
  static final String REPLICAS_ARGUMENT = "x-initial-cluster-size";

  private final ExecutorService executor =
      Executors.newCachedThreadPool(DaemonThreads.named("plumb-rabbitmq-stream-admin"));

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    config = RabbitMqStreamConfig.read(driverConfig.settings(), driverConfig.environment());
    try {
      environment =
          Environment.builder()
              // The locator connection (where the client asks which node leads each stream) uses
              // these, another when one fails; producers and consumers connect where it says.
              .uris(locatorUris(config))
              .username(config.username())
              .password(config.password())
              .virtualHost(config.virtualHost())
              .maxProducersByConnection(config.producersByConnection())
              .maxConsumersByConnection(config.consumersByConnection())
              .requestedMaxFrameSize(config.requestedMaxFrameSize())
              .build();
    } catch (StreamException e) {
      // First contact, before the management API is asked anything: a broker that is not
      // running is told as such.
      throw new BrokerUnreachableException(
          driverConfig.settings().file(),
          "RabbitMQ streams",
          String.join(",", locatorUris(config)).replaceAll("//[^@]*@", "//"),
          BrokerUnreachableException.describe(e),
          "deploy/local/rabbitmq.sh start",
          "--driver-set host=HOST --driver-set port=PORT");
    }
    // Before any stream exists: a file asking for more copies than there are nodes is refused.
    management =
        new ManagementApi(
            config.host(), config.username(), config.password(), config.virtualHost());
    cluster = new ClusterView(management);
    cluster.check(driverConfig.settings(), config.replicas(), REPLICAS_ARGUMENT);
    // Proves the stream protocol works end to end before a run depends on it.
    String probe = "plumb-probe-" + UUID.randomUUID();
    withReplicas(environment.streamCreator().stream(probe)).create();
    boolean exists = environment.streamExists(probe);
    environment.deleteStream(probe);
    if (!exists) {
      throw new IllegalStateException("stream " + probe + " was created but does not exist");
    }
    facts.put("rabbitmq.stream.endpoint", config.host() + ":" + config.port());
    facts.put(
        "rabbitmq.stream.created",
        "verified (streams are durable: written to disk, but not fsynced before the confirm)");
    facts.put("rabbitmq.queueLeaderLocator", config.queueLeaderLocator().toString());
    facts.put(BrokerFactNames.HEADER_METADATA, StreamHeader.WHERE);
    facts.put(BrokerFactNames.HEADER_METADATA_BYTES, String.valueOf(StreamHeader.WIRE_BYTES));
    Client asking = new Client(locatorParameters());
    try {
      StreamFrameLimit.negotiated(asking)
          .ifPresent(
              bytes -> StreamFrameLimit.addFacts(facts, bytes, config.requestedMaxFrameSize()));
    } finally {
      asking.close();
    }
  }

  /** A stream URI per locator port, with the file's credentials and virtual host. */
  private static List<String> locatorUris(RabbitMqStreamConfig c) {
    String userInfo =
        URLEncoder.encode(c.username(), StandardCharsets.UTF_8)
            + ":"
            + URLEncoder.encode(c.password(), StandardCharsets.UTF_8);
    String vhost = URLEncoder.encode(c.virtualHost(), StandardCharsets.UTF_8);
    return c.locatorPorts().stream()
        .map(p -> "rabbitmq-stream://" + userInfo + "@" + c.host() + ":" + p + "/" + vhost)
        .toList();
  }

  /** The creator with the file's copies (if set) and leader placement. */
  private StreamCreator withReplicas(StreamCreator creator) {
    creator.leaderLocator(
        config.queueLeaderLocator() == QueueLeaderLocator.BALANCED
            ? StreamCreator.LeaderLocator.BALANCED
            : StreamCreator.LeaderLocator.CLIENT_LOCAL);
    return config.replicas() == null ? creator : creator.initialMemberCount(config.replicas());
  }

  /**
   * The driver's own facts, with the cluster's: {@code nodes} and {@code brokerVersion} from
   * initialisation, and once topics exist {@code replicas}, {@code replicaNodes} and {@code
   * rabbitmq.leaders} as the broker reports them for the partition streams, and the client's send
   * and receive windows ({@link StreamWindows}), which are per partition.
   */
  @Override
  public Map<String, String> brokerFacts() {
    Map<String, String> all = new LinkedHashMap<>(facts);
    if (cluster != null) {
      all.putAll(cluster.facts());
    }
    all.putAll(new StreamWindows(config).facts(ClientWindow.mostPartitions(partitionsByTopic)));
    return Map.copyOf(all);
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return CompletableFuture.runAsync(
        () -> {
          for (int p = 0; p < partitions; p++) {
            StreamCreator creator =
                withReplicas(environment.streamCreator().stream(StreamNames.partition(topic, p)));
            if (config.maxLengthBytes() > 0) {
              creator.maxLengthBytes(ByteCapacity.B(config.maxLengthBytes()));
            }
            creator.create();
          }
          partitionsByTopic.put(topic, partitions);
          readReplication(topic, partitions);
        },
        executor);
  }

  /**
   * Reads back from the broker which nodes hold each partition stream, waiting (bounded) for the
   * replicas to start: as many as the file asks for, else one per running node (the broker's
   * default).
   */
  private void readReplication(String topic, int partitions) {
    if (!cluster.readable()) {
      return;
    }
    int expected = config.replicas() != null ? config.replicas() : cluster.runningNodeCount();
    try (StreamTopology topology =
        new StreamTopology(locatorParameters(), management.streamListenerNodes())) {
      for (int p = 0; p < partitions; p++) {
        QueueCopies copies =
            topology.await(StreamNames.partition(topic, p), expected, REPLICAS_TIMEOUT);
        cluster.record(copies);
        if (copies.leader() != null) {
          cluster.recordLeader(copies.queue(), copies.leader());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading the replication of " + topic, e);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the replication of " + topic + ": " + e.getMessage(), e);
    }
  }

  /**
   * Partition count, found by probing {@code <topic>-0, -1, ...} when another worker created it.
   */
  private int partitions(String topic) {
    Integer known = partitionsByTopic.get(topic);
    if (known != null) {
      return known;
    }
    int count = 0;
    while (environment.streamExists(StreamNames.partition(topic, count))) {
      count++;
    }
    if (count == 0) {
      throw new IllegalStateException("topic " + topic + " has no partition streams");
    }
    partitionsByTopic.put(topic, count);
    return count;
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return CompletableFuture.supplyAsync(
        () -> {
          StreamProducer producer =
              new StreamProducer(environment, topic, partitions(topic), config);
          clients.add(producer);
          return producer;
        },
        executor);
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    return CompletableFuture.supplyAsync(
        () -> {
          StreamSubscriptionGroup group =
              groups.computeIfAbsent(
                  topic + "\u0000" + subscription,
                  id ->
                      new StreamSubscriptionGroup(
                          environment, topic, partitions(topic), config.initialCredits()));
          StreamConsumer consumer = new StreamConsumer(listener, group);
          clients.add(consumer);
          group.join(consumer);
          return consumer;
        },
        executor);
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    return CompletableFuture.runAsync(
        () -> {
          for (String topic : topics) {
            int partitions = partitions(topic);
            for (int p = 0; p < partitions; p++) {
              environment.deleteStream(StreamNames.partition(topic, p));
            }
            partitionsByTopic.remove(topic);
            groups.keySet().removeIf(id -> id.startsWith(topic + "\u0000"));
          }
        },
        executor);
  }

  /**
   * Every partition stream from its first offset to the last one the broker reports when the read
   * starts, whatever the subscription (streams are durable and read without being consumed).
   */
  @Override
  public String readToEnd(String topic, String subscription, MessageListener sink, Duration timeout)
      throws Exception {
    return StreamFinalRead.read(
        environment,
        this::locatorParameters,
        topic,
        partitions(topic),
        config.initialCredits(),
        sink,
        timeout);
  }

  private Client.ClientParameters locatorParameters() {
    return new Client.ClientParameters()
        .host(config.host())
        .port(config.port())
        .username(config.username())
        .password(config.password())
        .virtualHost(config.virtualHost())
        .requestedMaxFrameSize(config.requestedMaxFrameSize());
  }

  /**
   * The leader of the topic's first partition stream, as the stream protocol's metadata names it:
   * the host and stream port its node advertises ({@code 127.0.0.1:5553}), which is the address
   * producers publish to. Asked of {@code host:port} on a connection of its own.
   */
  @Override
  public Optional<String> leaderOf(String topic) {
    return StreamLeaders.of(locatorParameters(), StreamNames.partition(topic, 0))
        .map(leader -> leader.getHost() + ":" + leader.getPort());
  }

  /** The leader of partition 0's stream, and its followers: the other nodes. */
  @Override
  public Role role() {
    return new Role("leader", "stream leader", "nodes but the stream leader");
  }

  @Override
  public void close() throws Exception {
    Exception first = clients.closeAll();
    if (environment != null) {
      environment.close();
    }
    executor.shutdownNow();
    if (first != null) {
      throw first;
    }
  }
}
