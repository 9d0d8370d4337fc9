package io.plumb.driver.pulsar;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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
import org.apache.pulsar.common.policies.data.PersistencePolicies;
import org.apache.pulsar.common.policies.data.RetentionPolicies;
import org.apache.pulsar.common.policies.data.TenantInfo;

/**
 * Apache Pulsar through the official client. Each driver instance creates its own namespace with
 * the YAML's persistence (ensemble, write and ack quorum), deduplication and retention, and returns
 * a topic prefix inside it, so every topic of the run gets those policies.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver"})
public final class PulsarBenchmarkDriver implements BenchmarkDriver {

  private PulsarConfig config;
  private PulsarClient client;
  private PulsarAdmin admin;
  private String namespace;
  private final List<AutoCloseable> clients = new CopyOnWriteArrayList<>();
  private final Map<String, String> facts = new LinkedHashMap<>();

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
    createNamespace();
  }

  /**
   * Creates {@code <tenant>/<prefix>-<random>} with the YAML's policies, then reads them back: a
   * broker that refused or altered a policy fails the run here rather than measuring something
   * else.
   */
  private void createNamespace() throws PulsarAdminException {
    PulsarClientSettings c = config.client();
    String tenant = c.namespacePrefix().split("/")[0];
    String cluster = c.clusterName();
    if (cluster == null || cluster.isBlank()) {
      cluster = admin.clusters().getClusters().get(0);
    }
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

  @Override
  public Map<String, String> brokerFacts() {
    return Map.copyOf(facts);
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return admin.topics().createPartitionedTopicAsync(topic, partitions);
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
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    return CompletableFuture.allOf(
        topics.stream()
            .map(t -> admin.topics().deletePartitionedTopicAsync(t, true))
            .toArray(CompletableFuture[]::new));
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
