package io.plumb.driver.pulsar;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.FinalReader;
import io.plumb.driver.LeaderLocator;
import io.plumb.driver.MessageListener;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.admin.PulsarAdminException;
import org.apache.pulsar.client.api.BatcherBuilder;
import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.SizeUnit;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.common.policies.data.ManagedLedgerInternalStats.LedgerInfo;
import org.apache.pulsar.common.policies.data.PersistencePolicies;
import org.apache.pulsar.common.policies.data.PersistentTopicInternalStats;
import org.apache.pulsar.common.policies.data.RawBookieInfo;
import org.apache.pulsar.common.policies.data.RetentionPolicies;
import org.apache.pulsar.common.policies.data.TenantInfo;

/**
 * Apache Pulsar through the official client. Each driver instance creates its own namespace with
 * the YAML's persistence (ensemble, write and ack quorum), deduplication and retention, and returns
 * a topic prefix inside it, so every topic of the run gets those policies.
 *
 * <p>Replication is read back from the broker, never taken from the file: the cluster's bookies
 * (registered with its metadata store) before anything is created, and once the run's topics exist
 * the ensemble and quorums of each partition's current ledger with the bookies holding it.
 *
 * <p>As a {@link LeaderLocator} it names the broker that owns a topic ({@code leader}, {@code
 * broker-owner}: BookKeeper has no leader) and a bookie of its current ledger ({@code bookie}: the
 * first bookie of the last ensemble of partition 0's current ledger, from the internal stats).
 */
@DriverAliases({"io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver"})
public final class PulsarBenchmarkDriver implements BenchmarkDriver, LeaderLocator, FinalReader {

  private PulsarConfig config;
  private PulsarClient client;
  private PulsarAdmin admin;
  private String namespace;
  private final List<AutoCloseable> clients = new CopyOnWriteArrayList<>();
  private final Map<String, String> facts = new LinkedHashMap<>();

  /** The bookies registered with the cluster, as BookKeeper names them, read at initialize. */
  private List<String> bookies = List.of();

  /** Topics this instance created and has not deleted, with their partition counts. */
  private final Map<String, Integer> createdTopics = new ConcurrentHashMap<>();

  /** How long reading the run's ledgers back may take (loading a topic creates its ledger). */
  private static final long LEDGER_READ_TIMEOUT_SECONDS = 60;

  /**
   * How long one {@link #locate} question may take: a fault is aimed within seconds, and the
   * framework asks again (up to 10 s) when there is no answer.
   */
  private static final long LEADER_READ_TIMEOUT_SECONDS = 5;

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    config = PulsarConfig.read(driverConfig.settings(), System.getenv());

    PulsarClientSettings c = config.client();
    ClientBuilder builder =
        PulsarClient.builder()
            .serviceUrl(c.serviceUrl())
            .ioThreads(c.ioThreads())
            .listenerThreads(c.listenerThreads())
            .connectionsPerBroker(c.connectionsPerBroker())
            .maxConcurrentLookupRequests(c.maxConcurrentLookupRequests())
            // Producers and consumers reconnect by themselves after a broker restart; this bounds
            // how long they wait between attempts (the first waits 100 ms, then each doubles).
            .maxBackoffInterval(c.maxBackoffIntervalMs(), TimeUnit.MILLISECONDS)
            .memoryLimit(c.clientMemoryLimitMB(), SizeUnit.MEGA_BYTES)
            // The client's periodic stats logging costs CPU on the load generator for nothing.
            .statsInterval(0, TimeUnit.SECONDS)
            .allowTlsInsecureConnection(c.tlsAllowInsecureConnection())
            .enableTlsHostnameVerification(c.tlsEnableHostnameVerification());
    if (c.tlsTrustCertsFilePath() != null && !c.tlsTrustCertsFilePath().isBlank()) {
      builder.tlsTrustCertsFilePath(c.tlsTrustCertsFilePath());
    }
    var adminBuilder =
        PulsarAdmin.builder()
            .serviceHttpUrl(c.httpUrl())
            .allowTlsInsecureConnection(c.tlsAllowInsecureConnection())
            .enableTlsHostnameVerification(c.tlsEnableHostnameVerification());
    if (c.tlsTrustCertsFilePath() != null && !c.tlsTrustCertsFilePath().isBlank()) {
      adminBuilder.tlsTrustCertsFilePath(c.tlsTrustCertsFilePath());
    }
    if (c.authentication().plugin() != null && !c.authentication().plugin().isBlank()) {
      String data = c.authentication().data() == null ? "" : c.authentication().data();
      builder.authentication(c.authentication().plugin(), data);
      adminBuilder.authentication(c.authentication().plugin(), data);
    }
    client = builder.build();
    admin = adminBuilder.build();
    DriverSettings clientSection = driverConfig.settings().section("client");
    readCluster(clientSection);
    refuseMoreCopiesThanBookies(clientSection.section("persistence"));
    readJournalSync(clientSection);
    createNamespace();
  }

  /**
   * Records the bookies' journalSyncData as each reports it ({@value BookieJournalSync#FACT}), and
   * refuses a file whose {@code expectJournalSync} not every registered bookie has, with one line,
   * before anything is created: a run meant to show what the journal's fsync buys must not run on
   * bookies that do otherwise. Without {@code bookieHttpUrls} the fact says it was not read.
   */
  private void readJournalSync(DriverSettings clientSection) throws Exception {
    PulsarClientSettings c = config.client();
    List<URI> endpoints = c.bookieEndpoints();
    if (endpoints.isEmpty()) {
      facts.put(
          BookieJournalSync.FACT,
          "not read (client.bookieHttpUrls names no bookie HTTP server to ask)");
      return;
    }
    List<BookieJournalSync.Reading> readings;
    try {
      readings = BookieJournalSync.read(endpoints);
    } catch (IOException e) {
      facts.put(BookieJournalSync.FACT, "not read (" + e.getMessage() + ")");
      if (c.expectJournalSync() != null) {
        close();
        throw clientSection.error(
            "expectJournalSync",
            "expects journalSyncData "
                + c.expectJournalSync()
                + " but the bookies' setting could not be read: "
                + e.getMessage()
                + " (client.bookieHttpUrls names the bookies' HTTP servers)");
      }
      return;
    }
    facts.put(BookieJournalSync.FACT, BookieJournalSync.describe(readings, bookies));
    Boolean expected = c.expectJournalSync();
    if (expected == null || BookieJournalSync.allAre(readings, bookies, expected)) {
      return;
    }
    close();
    throw clientSection.error(
        "expectJournalSync",
        "expects journalSyncData "
            + expected
            + " but the bookies report "
            + BookieJournalSync.describe(readings, bookies)
            + " (start them with: deploy/local/pulsar.sh start --nodes 3 --journal-sync "
            + expected
            + ")");
  }

  /**
   * The broker's version, its cluster's brokers and bookies. The first admin call also tells a
   * wrong {@code httpUrl} apart from other failures, in one line.
   */
  private void readCluster(DriverSettings clientSection) throws Exception {
    String httpUrl = config.client().httpUrl();
    try {
      facts.put(BrokerFactNames.BROKER_VERSION, admin.brokers().getVersion());
    } catch (PulsarAdminException e) {
      if (hasCause(e, ConnectException.class)) {
        throw new BrokerUnreachableException(
            clientSection.file(),
            "Pulsar's admin service",
            httpUrl,
            rootMessage(e),
            "deploy/local/pulsar.sh start",
            "--driver-set client.httpUrl=http://HOST:PORT and client.serviceUrl=pulsar://HOST:PORT,"
                + " or PULSAR_HTTP_URL and PULSAR_SERVICE_URL");
      }
      throw e;
    }
    String cluster = clusterName();
    facts.put("pulsar.brokers", String.valueOf(admin.brokers().getActiveBrokers(cluster).size()));
    bookies =
        admin.bookies().getBookies().getBookies().stream()
            .map(RawBookieInfo::getBookieId)
            .sorted()
            .toList();
    facts.put(BrokerFactNames.NODES, String.valueOf(bookies.size()));
    facts.put("pulsar.bookies", String.join(",", bookies));
  }

  /**
   * A ledger needs {@code ensembleSize} distinct bookies: with fewer, every topic load fails and a
   * subscribe waits for its timeout (100 s) before the run fails. Refused here instead, in one
   * line. Non-persistent topics have no ledgers.
   */
  private void refuseMoreCopiesThanBookies(DriverSettings persistenceSection)
      throws DriverConfigException {
    PulsarClientSettings.Persistence p = config.client().persistence();
    int bookies = Integer.parseInt(facts.get(BrokerFactNames.NODES));
    if (config.client().topicType() == TopicType.PERSISTENT && p.ensembleSize() > bookies) {
      throw persistenceSection.error(
          "ensembleSize",
          "asks for ledgers on "
              + p.ensembleSize()
              + " bookies ("
              + p.writeQuorum()
              + " copies of each entry) but the Pulsar cluster at "
              + config.client().httpUrl()
              + " has "
              + bookies
              + (bookies == 1 ? " bookie" : " bookies")
              + " (start 3: deploy/local/pulsar.sh start --nodes 3)");
    }
  }

  private String clusterName() throws PulsarAdminException {
    String cluster = config.client().clusterName();
    return cluster == null || cluster.isBlank() ? admin.clusters().getClusters().get(0) : cluster;
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  /**
   * Creates {@code <tenant>/<prefix>-<random>} with the YAML's policies, then reads them back: a
   * broker that refused or altered a policy fails the run here rather than measuring something
   * else.
   */
  private void createNamespace() throws PulsarAdminException {
    PulsarClientSettings c = config.client();
    String tenant = c.namespacePrefix().split("/")[0];
    String cluster = clusterName();
    if (!admin.tenants().getTenants().contains(tenant)) {
      try {
        admin
            .tenants()
            .createTenant(tenant, TenantInfo.builder().allowedClusters(Set.of(cluster)).build());
      } catch (PulsarAdminException.ConflictException raced) {
        // another driver instance created it first
      }
    }
    namespace = c.namespacePrefix() + "-" + UUID.randomUUID().toString().substring(0, 8);
    admin.namespaces().createNamespace(namespace, Set.of(cluster));
    PulsarClientSettings.Persistence p = c.persistence();
    admin
        .namespaces()
        .setPersistence(
            namespace,
            new PersistencePolicies(p.ensembleSize(), p.writeQuorum(), p.ackQuorum(), 0));
    admin.namespaces().setDeduplicationStatus(namespace, p.deduplicationEnabled());
    admin
        .namespaces()
        .setRetention(
            namespace,
            new RetentionPolicies(c.retention().timeInMinutes(), c.retention().sizeInMB()));

    PersistencePolicies read = admin.namespaces().getPersistence(namespace);
    if (read == null
        || read.getBookkeeperEnsemble() != p.ensembleSize()
        || read.getBookkeeperWriteQuorum() != p.writeQuorum()
        || read.getBookkeeperAckQuorum() != p.ackQuorum()) {
      throw new IllegalStateException(
          "namespace " + namespace + " persistence reads back as " + read + ", not " + p);
    }
    facts.put("pulsar.namespace", namespace);
    facts.put("pulsar.cluster", cluster);
    facts.put(
        "pulsar.persistence",
        "ensembleSize="
            + read.getBookkeeperEnsemble()
            + " writeQuorum="
            + read.getBookkeeperWriteQuorum()
            + " ackQuorum="
            + read.getBookkeeperAckQuorum()
            + " (read back)");
    facts.put(
        "pulsar.deduplication",
        String.valueOf(admin.namespaces().getDeduplicationStatus(namespace)));
    RetentionPolicies retention = admin.namespaces().getRetention(namespace);
    facts.put(
        "pulsar.retention",
        retention == null
            ? "none"
            : retention.getRetentionTimeInMinutes()
                + " min, "
                + retention.getRetentionSizeInMB()
                + " MB");
    facts.put("pulsar.topicType", c.topicType().toString());
  }

  /** Topics live in this driver's namespace, so they carry its policies. */
  @Override
  public String topicNamePrefix() {
    return config.client().topicType() + "://" + namespace + "/plumb";
  }

  String namespace() {
    return namespace;
  }

  PulsarAdmin admin() {
    return admin;
  }

  PulsarConfig config() {
    return config;
  }

  /**
   * What the broker said at {@link #initialize}, and once topics exist the replication of their
   * ledgers: {@code replicas} is the smallest write quorum (copies of each entry) over the current
   * ledgers of every partition, {@code replicaNodes} the bookies of their ensembles.
   */
  @Override
  public Map<String, String> brokerFacts() {
    Map<String, String> all = new LinkedHashMap<>(facts);
    if (!createdTopics.isEmpty()) {
      all.putAll(ledgerFacts());
    }
    return Map.copyOf(all);
  }

  private Map<String, String> ledgerFacts() {
    Map<String, String> read = new LinkedHashMap<>();
    if (config.client().topicType() == TopicType.NON_PERSISTENT) {
      read.put(BrokerFactNames.REPLICAS, "0");
      read.put(BrokerFactNames.REPLICA_NODES, "");
      read.put("pulsar.ledgers", "none: non-persistent topics are not stored");
      return read;
    }
    List<String> partitions = new ArrayList<>();
    createdTopics.forEach(
        (topic, count) -> {
          for (int i = 0; i < count; i++) {
            partitions.add(topic + "-partition-" + i);
          }
        });
    List<CompletableFuture<PersistentTopicInternalStats>> stats =
        partitions.stream().map(p -> admin.topics().getInternalStatsAsync(p, true)).toList();
    List<LedgerReplication> ledgers = new ArrayList<>();
    try {
      CompletableFuture.allOf(stats.toArray(CompletableFuture[]::new))
          .get(LEDGER_READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      for (int i = 0; i < partitions.size(); i++) {
        Optional<LedgerReplication> current = currentLedger(stats.get(i).join());
        if (current.isEmpty()) {
          read.put("pulsar.ledgers", "not read: " + partitions.get(i) + " reports no open ledger");
          return read;
        }
        ledgers.add(current.get());
      }
    } catch (ExecutionException | TimeoutException e) {
      read.put("pulsar.ledgers", "not read: " + rootMessage(e));
      return read;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      read.put("pulsar.ledgers", "not read: interrupted");
      return read;
    }
    read.put(
        BrokerFactNames.REPLICAS,
        String.valueOf(
            ledgers.stream().mapToInt(LedgerReplication::writeQuorum).min().orElseThrow()));
    read.put(
        BrokerFactNames.REPLICA_NODES,
        ledgers.stream()
            .flatMap(l -> l.bookies().stream())
            .collect(Collectors.toCollection(TreeSet::new))
            .stream()
            .collect(Collectors.joining(",")));
    read.put("pulsar.ledgers", LedgerReplication.describe(ledgers));
    return read;
  }

  /** The last ledger of a partition is the one it writes to. */
  private static Optional<LedgerReplication> currentLedger(PersistentTopicInternalStats stats) {
    List<LedgerInfo> ledgers = stats.ledgers;
    if (ledgers == null || ledgers.isEmpty()) {
      return Optional.empty();
    }
    return LedgerReplication.parse(ledgers.get(ledgers.size() - 1).metadata);
  }

  /**
   * The roles a fault can aim at. BookKeeper has no leader: what orders a topic's writes is the
   * broker that owns it, so {@code leader} is that broker ({@code broker-owner}, its plain name);
   * {@code bookie} is a bookie writing the current ledger. No {@code followers}: the bookies do not
   * follow the broker.
   */
  @Override
  public Map<String, String> targets() {
    String owner = "broker that owns the topic (partition 0)";
    return Map.of(
        "leader", owner,
        "broker-owner", owner,
        "bookie", "first bookie of the current ledger's ensemble (partition 0)");
  }

  @Override
  public Optional<String> locate(String target, String topic) throws Exception {
    return switch (target) {
      case "leader", "broker-owner" -> Optional.of(ownerOf(topic));
      case "bookie" -> bookieOf(topic);
      default -> throw new IllegalArgumentException("this driver names no " + target);
    };
  }

  /**
   * The broker that owns partition 0 of {@code topic} now, as host:port of its binary protocol,
   * from the admin API's topic lookup ({@code pulsar://127.0.0.1:6650} becomes {@code
   * 127.0.0.1:6650}).
   */
  String ownerOf(String topic) throws Exception {
    String url =
        admin
            .lookups()
            .lookupTopicAsync(partitionZero(topic))
            .get(LEADER_READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    return url.replaceFirst("^[a-z+]+://", "").replaceFirst("/.*$", "");
  }

  /**
   * A bookie holding partition 0 of {@code topic} now: the first bookie of the last ensemble of its
   * current ledger, from the broker's internal stats with ledger metadata. After a bookie of the
   * ensemble fails during a write, the broker replaces it (a new ensemble in the same ledger) or
   * rolls over to a new ledger, and the answer follows. Empty for non-persistent topics (no
   * ledgers) and while the partition has no ledger.
   */
  Optional<String> bookieOf(String topic) throws Exception {
    if (config.client().topicType() == TopicType.NON_PERSISTENT) {
      return Optional.empty();
    }
    PersistentTopicInternalStats stats =
        admin
            .topics()
            .getInternalStatsAsync(partitionZero(topic), true)
            .get(LEADER_READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    return currentLedger(stats).map(LedgerReplication::firstBookie);
  }

  /** Partition 0 of a partitioned topic, or the topic itself when it has no partitions. */
  private String partitionZero(String topic) throws Exception {
    Integer partitions = createdTopics.get(topic);
    if (partitions == null) {
      partitions =
          admin
              .topics()
              .getPartitionedTopicMetadataAsync(topic)
              .get(LEADER_READ_TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .partitions;
    }
    return partitions > 0 ? topic + "-partition-0" : topic;
  }

  private static final int ADMIN_REQUESTS_IN_FLIGHT = 32;

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return admin
        .topics()
        .createPartitionedTopicAsync(topic, partitions)
        .thenRun(() -> createdTopics.put(topic, partitions));
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    PulsarProducerSettings p = config.producer();
    ProducerBuilder<byte[]> builder =
        client
            .newProducer()
            .topic(topic)
            .enableBatching(p.batchingEnabled())
            .batchingMaxPublishDelay(p.batchingMaxPublishDelayMs(), TimeUnit.MILLISECONDS)
            .batchingMaxBytes(p.batchingMaxBytes())
            .batchingMaxMessages(p.batchingMaxMessages())
            .blockIfQueueFull(p.blockIfQueueFull())
            .maxPendingMessages(p.pendingQueueSize())
            .sendTimeout(p.sendTimeoutMs(), TimeUnit.MILLISECONDS)
            // Keyed messages go to the key's partition; unkeyed ones round robin (per batch).
            .messageRoutingMode(MessageRoutingMode.RoundRobinPartition)
            .hashingScheme(HashingScheme.Murmur3_32Hash);
    if (config.consumer().subscriptionType() == SubscriptionType.Key_Shared) {
      // Key_Shared dispatches a whole batch by one key: batch per key so each key's messages
      // reach that key's consumer.
      builder.batcherBuilder(BatcherBuilder.KEY_BASED);
    }
    return builder
        .createAsync()
        .thenApply(
            producer -> {
              PulsarProducer wrapped = new PulsarProducer(producer);
              clients.add(wrapped);
              return wrapped;
            });
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    PulsarConsumerSettings c = config.consumer();
    PulsarConsumer wrapped = new PulsarConsumer();
    return client
        .newConsumer()
        .topic(topic)
        .subscriptionName(subscription)
        .subscriptionType(c.subscriptionType())
        .subscriptionMode(c.subscriptionMode())
        // A subscription created after the first sends still sees every message.
        .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
        .receiverQueueSize(c.receiverQueueSize())
        .maxTotalReceiverQueueSizeAcrossPartitions(c.maxTotalReceiverQueueSizeAcrossPartitions())
        .acknowledgmentGroupTime(c.acknowledgmentsGroupTimeMicros(), TimeUnit.MICROSECONDS)
        .messageListener(wrapped.dispatcher(listener))
        .subscribeAsync()
        .thenApply(
            consumer -> {
              wrapped.attach(consumer);
              clients.add(wrapped);
              return wrapped;
            });
  }

  @Override
  public Optional<String> whyNoFinalRead() {
    return config.client().topicType() == TopicType.NON_PERSISTENT
        ? Optional.of("non-persistent topics keep no messages")
        : Optional.empty();
  }

  /** Every partition from the earliest message held to its last message ID at the start. */
  @Override
  public String readToEnd(String topic, String subscription, MessageListener sink, Duration timeout)
      throws Exception {
    Optional<String> why = whyNoFinalRead();
    if (why.isPresent()) {
      throw new IllegalStateException("no final read: " + why.get());
    }
    Integer known = createdTopics.get(topic);
    int partitions =
        known != null ? known : admin.topics().getPartitionedTopicMetadata(topic).partitions;
    return PulsarFinalRead.read(client, topic, partitions, sink, timeout);
  }

  /**
   * In parallel, at most {@value #ADMIN_REQUESTS_IN_FLIGHT} requests at a time: ten thousand at
   * once queue in the admin client's few connections until they time out.
   */
  @Override
  public CompletableFuture<Void> createTopics(List<String> topics, int partitions) {
    return inParallel(topics, topic -> createTopic(topic, partitions));
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    return inParallel(
        topics,
        t ->
            admin
                .topics()
                .deletePartitionedTopicAsync(t, true)
                .thenRun(() -> createdTopics.remove(t)));
  }

  /**
   * Applies {@code action} to every topic, {@value #ADMIN_REQUESTS_IN_FLIGHT} lanes each taking the
   * next topic when its previous request completes; fails with the first failure.
   */
  private static CompletableFuture<Void> inParallel(
      List<String> topics, Function<String, CompletableFuture<Void>> action) {
    AtomicInteger next = new AtomicInteger();
    CompletableFuture<?>[] lanes =
        new CompletableFuture<?>[Math.min(ADMIN_REQUESTS_IN_FLIGHT, topics.size())];
    for (int i = 0; i < lanes.length; i++) {
      lanes[i] = lane(topics, next, action);
    }
    return CompletableFuture.allOf(lanes);
  }

  private static CompletableFuture<Void> lane(
      List<String> topics, AtomicInteger next, Function<String, CompletableFuture<Void>> action) {
    int index = next.getAndIncrement();
    if (index >= topics.size()) {
      return CompletableFuture.completedFuture(null);
    }
    return action.apply(topics.get(index)).thenComposeAsync(done -> lane(topics, next, action));
  }

  @Override
  public void close() throws Exception {
    Exception first = null;
    for (AutoCloseable c : clients) {
      try {
        c.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    clients.clear();
    if (client != null) {
      client.close();
    }
    if (admin != null) {
      if (namespace != null) {
        try {
          // Only succeeds once every topic is gone, so it never removes another run's data.
          admin.namespaces().deleteNamespace(namespace);
        } catch (PulsarAdminException e) {
          // topics kept (deleteTopics not called): leave the namespace too
        }
      }
      admin.close();
    }
    if (first != null) {
      throw first;
    }
  }
}
