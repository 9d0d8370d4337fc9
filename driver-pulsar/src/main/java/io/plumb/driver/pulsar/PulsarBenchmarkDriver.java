package io.plumb.driver.pulsar;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.ClientWindow;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.FinalReader;
import io.plumb.driver.LeaderLocator;
import io.plumb.driver.MessageListener;
import io.plumb.driver.OpenClients;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.BatcherBuilder;
import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.HashingScheme;
import org.apache.pulsar.client.api.MessageRoutingMode;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.SizeUnit;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;

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
  private PulsarBrokerFacts facts;
  private PulsarNamespace namespace;
  private PulsarTopics pulsarTopics;
  private PulsarLeaders leaders;
  private final OpenClients clients = new OpenClients();

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    config = PulsarConfig.read(driverConfig.settings(), driverConfig.environment());

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
    TopicType topicType = c.topicType();
    facts = new PulsarBrokerFacts(admin, topicType);
    pulsarTopics = new PulsarTopics(admin);
    leaders = new PulsarLeaders(admin, topicType, pulsarTopics);
    DriverSettings clientSection = driverConfig.settings().section("client");
    PulsarCluster cluster = new PulsarCluster(admin, c, facts);
    cluster.read(clientSection);
    cluster.refuseMoreCopiesThanBookies(clientSection.section("persistence"));
    try {
      cluster.readJournalSync(clientSection);
    } catch (DriverConfigException refused) {
      // Bookies that do not sync as the file expects: nothing of this driver stays open.
      close();
      throw refused;
    }
    namespace = new PulsarNamespace(admin, c, facts);
    namespace.create();
    BrokerLimits.read(admin, facts);
  }

  /** Topics live in this driver's namespace, so they carry its policies. */
  @Override
  public String topicNamePrefix() {
    return config.client().topicType() + "://" + namespace() + "/plumb";
  }

  String namespace() {
    return namespace == null ? null : namespace.name();
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
   * ledgers of every partition, {@code replicaNodes} the bookies of their ensembles; with the
   * clients' send and receive windows ({@link PulsarWindows}), which are per partition; and where
   * the header travels when it is not in the payload ({@link PulsarHeader}).
   */
  @Override
  public Map<String, String> brokerFacts() {
    // Before initialize (or after it failed) there is nothing read yet: no facts, as before.
    if (facts == null) {
      return Map.of();
    }
    Map<String, Integer> created = pulsarTopics.created();
    Map<String, String> all = new HashMap<>(facts.read(created));
    all.putAll(PulsarWindows.facts(config, ClientWindow.mostPartitions(created)));
    // Every topic type, subscription type and batching setting carries message properties, so
    // every file of this driver can carry the header in one.
    all.put(BrokerFactNames.HEADER_METADATA, PulsarHeader.WHERE);
    all.put(BrokerFactNames.HEADER_METADATA_BYTES, String.valueOf(PulsarHeader.WIRE_BYTES));
    return Map.copyOf(all);
  }

  /** See {@link PulsarLeaders#targets}. */
  @Override
  public Map<String, String> targets() {
    return PulsarLeaders.targets();
  }

  @Override
  public Optional<String> locate(String target, String topic) throws Exception {
    return leaders.locate(target, topic);
  }

  /** See {@link PulsarLeaders#bookieOf}. */
  Optional<String> bookieOf(String topic) throws Exception {
    return leaders.bookieOf(topic);
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return pulsarTopics.create(topic, partitions);
  }

  /** A limited number of requests at a time: see {@link PulsarTopics#createAll}. */
  @Override
  public CompletableFuture<Void> createTopics(List<String> topics, int partitions) {
    return pulsarTopics.createAll(topics, partitions);
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    return pulsarTopics.delete(topics);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    PulsarProducerSettings p = config.producer();
    RememberingRouter router =
        new RememberingRouter(p.batchingEnabled(), p.batchingMaxPublishDelayMs());
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
            // Keyed messages go to the key's partition; unkeyed ones round robin (per batch), as
            // the client's RoundRobinPartition mode routes them; the router also tells a failed
            // send's partition, which no message ID names.
            .messageRoutingMode(MessageRoutingMode.CustomPartition)
            .messageRouter(router)
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
              PulsarProducer wrapped = new PulsarProducer(producer, router);
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
    requireFinalRead();
    int partitions = pulsarTopics.partitions(topic, timeout);
    return PulsarFinalRead.read(client, topic, partitions, sink, timeout);
  }

  @Override
  public void close() throws Exception {
    Exception first = clients.closeAll();
    if (client != null) {
      client.close();
    }
    if (admin != null) {
      if (namespace != null) {
        namespace.delete();
      }
      admin.close();
    }
    if (first != null) {
      throw first;
    }
  }
}
