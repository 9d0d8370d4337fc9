package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.OmbDriverFieldsContract;
import java.io.IOException;
import java.util.Map;
import org.apache.pulsar.client.api.SubscriptionType;
import org.junit.jupiter.api.Test;

/**
 * OpenMessaging Benchmark's Pulsar driver file, field by field: each lands where OMB's {@code
 * PulsarBenchmarkDriver} puts it, checked up to the driver's settings (applying them to a client,
 * namespace and topics needs a broker: PulsarBenchmarkDriverTest). The file mirrors OMB's {@code
 * driver-pulsar/pulsar.yaml}, empty values included.
 */
class OmbPulsarDriverFieldsTest extends OmbDriverFieldsContract<PulsarConfig> {
  private static final String OMB_FILE =
      """
      name: Pulsar
      driverClass: io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver

      # Pulsar client-specific configuration
      client:
        serviceUrl: pulsar://localhost:6650
        httpUrl: http://localhost:8080
        ioThreads: 16
        connectionsPerBroker: 8
        clusterName: local
        namespacePrefix: benchmark/ns
        topicType: persistent
        persistence:
          ensembleSize: 3
          writeQuorum: 3
          ackQuorum: 2
          deduplicationEnabled: false
        tlsAllowInsecureConnection: false
        tlsEnableHostnameVerification: false
        tlsTrustCertsFilePath:
        authentication:
          plugin:
          data:

      # Producer configuration
      producer:
        batchingEnabled: true
        batchingMaxPublishDelayMs: 1
        batchingMaxBytes: 131072
        blockIfQueueFull: true
        pendingQueueSize: 0

      # Consumer configuration
      consumer:
        receiverQueueSize: 10000
        subscriptionType: Failover
      """;

  OmbPulsarDriverFieldsTest() {
    super(
        "pulsar.yaml",
        OMB_FILE,
        f -> PulsarConfig.read(f, Map.of()),
        "Pulsar",
        PulsarBenchmarkDriver.class);
  }

  /** OMB: the client's binary and admin URLs; OMB's TLS settings apply to both. */
  @Test
  void clientUrlsAndTls() {
    assertEquals("pulsar://localhost:6650", settings().client().serviceUrl());
    assertEquals("http://localhost:8080", settings().client().httpUrl());
    assertFalse(settings().client().tlsAllowInsecureConnection());
    assertFalse(settings().client().tlsEnableHostnameVerification());
    assertNull(settings().client().tlsTrustCertsFilePath(), "empty in OMB's file: none");
  }

  /** OMB: the client's I/O threads and connections per broker (and OMB's defaults beside). */
  @Test
  void clientThreadsAndConnections() {
    assertEquals(16, settings().client().ioThreads());
    assertEquals(8, settings().client().connectionsPerBroker());
    // Not in OMB's file; OMB's defaults.
    assertEquals(256L, settings().client().clientMemoryLimitMB());
    assertEquals(1000, settings().client().maxConcurrentLookupRequests());
  }

  /**
   * OMB: the namespace {@code <namespacePrefix>-<random>} is created in {@code clusterName}, and
   * topics are {@code <topicType>://<namespace>/...}.
   */
  @Test
  void namespaceClusterAndTopicType() throws IOException, DriverConfigException {
    assertEquals("local", settings().client().clusterName());
    assertEquals("benchmark/ns", settings().client().namespacePrefix());
    assertEquals(TopicType.PERSISTENT, settings().client().topicType());
    assertEquals("persistent", settings().client().topicType().toString());
    // OMB's enum (Pulsar's TopicDomain) spells the other one non_persistent.
    PulsarConfig nonPersistent =
        variant(OMB_FILE.replace("topicType: persistent", "topicType: non_persistent"));
    assertEquals("non-persistent", nonPersistent.client().topicType().toString());
  }

  /** OMB: the namespace's BookKeeper ensemble, write and ack quorums, and deduplication. */
  @Test
  void persistence() {
    PulsarClientSettings.Persistence p = settings().client().persistence();
    assertEquals(3, p.ensembleSize());
    assertEquals(3, p.writeQuorum());
    assertEquals(2, p.ackQuorum());
    assertFalse(p.deduplicationEnabled());
  }

  /** OMB: an authentication plugin and its data, for client and admin; empty means none. */
  @Test
  void authentication() throws IOException, DriverConfigException {
    assertNull(settings().client().authentication().plugin());
    assertNull(settings().client().authentication().data());
    PulsarConfig withToken =
        variant(
            OMB_FILE.replace(
                "    plugin:\n    data:\n",
                "    plugin: org.apache.pulsar.client.impl.auth.AuthenticationToken\n"
                    + "    data: token:abc\n"));
    PulsarClientSettings.Authentication auth = withToken.client().authentication();
    assertEquals("org.apache.pulsar.client.impl.auth.AuthenticationToken", auth.plugin());
    assertEquals("token:abc", auth.data());
  }

  /** OMB: the producer builder's batching, blocking and pending-queue settings. */
  @Test
  void producer() {
    PulsarProducerSettings producer = settings().producer();
    assertTrue(producer.batchingEnabled());
    assertEquals(1, producer.batchingMaxPublishDelayMs());
    assertEquals(131072, producer.batchingMaxBytes());
    assertTrue(producer.blockIfQueueFull());
    assertEquals(0, producer.pendingQueueSize());
  }

  /** OMB: the consumer builder's receiver queue and subscription type. */
  @Test
  void consumer() {
    assertEquals(10000, settings().consumer().receiverQueueSize());
    assertEquals(SubscriptionType.Failover, settings().consumer().subscriptionType());
  }

  /** OMB's pulsar-effectively-once.yaml: deduplication on, fewer I/O threads. */
  @Test
  void effectivelyOnceVariant() throws IOException, DriverConfigException {
    PulsarConfig effectivelyOnce =
        variant(
            OMB_FILE
                .replace("ioThreads: 16", "ioThreads: 4")
                .replace("deduplicationEnabled: false", "deduplicationEnabled: true"));
    assertTrue(effectivelyOnce.client().persistence().deduplicationEnabled());
    assertEquals(4, effectivelyOnce.client().ioThreads());
  }
}
