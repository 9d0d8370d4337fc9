package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.testkit.BrokerPort;
import io.plumb.testkit.DriverFileRefusalContract;
import io.plumb.testkit.DriverFiles;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.OmbDriverClass;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.SubscriptionMode;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.common.policies.data.PartitionedTopicStats;
import org.apache.pulsar.common.policies.data.PersistencePolicies;
import org.apache.pulsar.common.policies.data.SubscriptionStats;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Pulsar driver against the local standalone broker, once per shipped YAML. */
class PulsarBenchmarkDriverTest implements DriverFileRefusalContract {

  @BeforeAll
  static void brokerRunning() {
    BrokerPort.assertListening("Pulsar", "deploy/local/pulsar.sh start", 6650, 8080);
  }

  private static PulsarBenchmarkDriver driver(String file, Map<String, String> overrides)
      throws Exception {
    return DriverFiles.open(PulsarBenchmarkDriver::new, Path.of(file), overrides);
  }

  private String refusal(String file, Map<String, String> overrides) throws Exception {
    return refusalOf(Path.of(file), overrides);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "pulsar.yaml, ''",
    "pulsar-throughput.yaml, ''",
    "pulsar-latency.yaml, ''",
    "pulsar.yaml, Shared",
    "pulsar.yaml, Key_Shared",
    "pulsar.yaml, Exclusive",
  })
  void deliversEveryMessageOncePerSubscriptionWithTheNamespacePolicies(
      String file, String subscriptionType) throws Exception {
    Map<String, String> overrides = overridesFor(subscriptionType);
    try (PulsarBenchmarkDriver driver = driver(file, overrides)) {
      PulsarAdmin admin = driver.admin();
      SubscriptionType type = driver.config().consumer().subscriptionType();
      boolean exclusive = type == SubscriptionType.Exclusive;
      DriverRoundTrip.Result r =
          DriverRoundTrip.run(
              driver,
              DriverRoundTrip.Plan.of(2_000, 30)
                  .withSharedMembers(exclusive ? 1 : 2)
                  .beforeSending(
                      topic -> {
                        assertEquals(
                            DriverRoundTrip.PARTITIONS,
                            admin.topics().getPartitionedTopicMetadata(topic).partitions);
                        if (!exclusive) {
                          awaitBothMembers(admin, topic, type);
                        }
                      }));
      if (!exclusive) {
        r.assertSharedBetweenMembers();
      }
      String topic = r.topic();

      // The namespace carries what the YAML promises, read back from the broker.
      PulsarClientSettings.Persistence promised = driver.config().client().persistence();
      PersistencePolicies read = admin.namespaces().getPersistence(driver.namespace());
      assertEquals(promised.ensembleSize(), read.getBookkeeperEnsemble());
      assertEquals(promised.writeQuorum(), read.getBookkeeperWriteQuorum());
      assertEquals(promised.ackQuorum(), read.getBookkeeperAckQuorum());
      assertEquals(
          promised.deduplicationEnabled(),
          admin.namespaces().getDeduplicationStatus(driver.namespace()));
      assertTrue(topic.startsWith("persistent://" + driver.namespace() + "/"));
      // The round trip deleted the topic.
      assertFalse(admin.topics().getPartitionedTopicList(driver.namespace()).contains(topic));
    }
  }

  /**
   * A Shared subscription's dispatcher hands each read of entries to the next member with permits,
   * starting from the same member on every partition; with the YAML's 10,000 permits and batches of
   * hundreds of messages, one member can take every entry of a short test. Unbatched messages and
   * ten permits per member make the broker alternate, so the test sees the subscription type, not
   * the dispatcher's read sizes.
   */
  private static Map<String, String> overridesFor(String subscriptionType) {
    return switch (subscriptionType) {
      case "" -> Map.of();
      case "Shared" ->
          Map.of(
              "consumer.subscriptionType", subscriptionType,
              "consumer.receiverQueueSize", "10",
              "producer.batchingEnabled", "false");
      default -> Map.of("consumer.subscriptionType", subscriptionType);
    };
  }

  /**
   * Waits until both members can receive, as a benchmark's readiness check and warm-up would,
   * before sending. A Failover subscription moves partitions to a new member after a delay (1 s by
   * default); a Shared or Key_Shared one dispatches only to members that have sent flow permits, so
   * a first member could otherwise take every message before the second is ready.
   */
  private static void awaitBothMembers(PulsarAdmin admin, String topic, SubscriptionType type)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    Set<String> active = new HashSet<>();
    while (System.nanoTime() < deadline) {
      active.clear();
      boolean everyPartitionHasBothWithPermits = true;
      PartitionedTopicStats stats = admin.topics().getPartitionedStats(topic, true);
      for (var partition : stats.getPartitions().values()) {
        SubscriptionStats sub = partition.getSubscriptions().get("shared");
        if (sub != null && sub.getActiveConsumerName() != null) {
          active.add(sub.getActiveConsumerName());
        }
        everyPartitionHasBothWithPermits &=
            sub != null
                && sub.getConsumers().size() == 2
                && sub.getConsumers().stream().allMatch(c -> c.getAvailablePermits() > 0);
      }
      boolean ready =
          type == SubscriptionType.Failover ? active.size() == 2 : everyPartitionHasBothWithPermits;
      if (ready) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    fail(type + " subscription did not have both members ready within 20 s: " + active);
  }

  @Test
  void replicationOverrideBeyondTheOneBookieIsRefusedBeforeAnythingIsCreated() throws Exception {
    String tooMany =
        refusal(
            "pulsar.yaml",
            Map.of(
                "client.persistence.ensembleSize", "3",
                "client.persistence.writeQuorum", "3",
                "client.persistence.ackQuorum", "2"));
    assertEquals(
        "--driver-set client.persistence.ensembleSize=3: asks for ledgers on 3 bookies (3 copies"
            + " of each entry) but the Pulsar cluster at http://127.0.0.1:8080 has 1 bookie (start"
            + " 3: deploy/local/pulsar.sh start --nodes 3)",
        tooMany);
    String badQuorum = refusal("pulsar.yaml", Map.of("client.persistence.ackQuorum", "2"));
    assertEquals(
        "--driver-set client.persistence.ackQuorum=2: needs ackQuorum (2) <= writeQuorum (1) <="
            + " ensembleSize (1)",
        badQuorum);
  }

  @Test
  void reportsTheBrokerAndItsBookieThenTheLedgersOfTheTopicsItCreated() throws Exception {
    try (PulsarBenchmarkDriver driver = driver("pulsar.yaml", Map.of())) {
      Map<String, String> before = driver.brokerFacts();
      assertEquals("1", before.get(BrokerFactNames.NODES), before.toString());
      assertEquals("1", before.get("pulsar.brokers"), before.toString());
      assertEquals("4.0.7", before.get(BrokerFactNames.BROKER_VERSION), before.toString());
      // No topic, no ledger: nothing to say about copies yet.
      assertFalse(before.containsKey(BrokerFactNames.REPLICAS), before.toString());

      String topic = driver.topicNamePrefix() + "-" + Long.toHexString(System.nanoTime());
      driver.createTopic(topic, 2).get(30, TimeUnit.SECONDS);
      Map<String, String> after = driver.brokerFacts();
      assertEquals("1", after.get(BrokerFactNames.REPLICAS), after.toString());
      assertEquals(before.get("pulsar.bookies"), after.get(BrokerFactNames.REPLICA_NODES));
      assertEquals(
          "ensemble=1 writeQuorum=1 ackQuorum=1 (current ledger of 2 of 2 partitions)",
          after.get("pulsar.ledgers"));
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void unreachableAdminServiceIsOneLineNamingTheAddressAndTheWayOut() {
    BrokerUnreachableException e =
        assertThrows(
            BrokerUnreachableException.class,
            () -> driver("pulsar.yaml", Map.of("client.httpUrl", "http://127.0.0.1:1")));
    assertTrue(
        e.getMessage()
            .startsWith(
                "pulsar.yaml: Pulsar's admin service at http://127.0.0.1:1 is unreachable ("),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("start the local one with deploy/local/pulsar.sh start"),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void acceptsOmbDriverFile() throws Exception {
    try (PulsarBenchmarkDriver driver = driver("src/test/resources/omb-pulsar.yaml", Map.of())) {
      assertEquals(SubscriptionMode.Durable, driver.config().consumer().subscriptionMode());
      assertEquals(16, driver.config().client().ioThreads());
      assertEquals("local", driver.brokerFacts().get("pulsar.cluster"));
    }
    OmbDriverClass.assertAliasedAndListed(
        PulsarBenchmarkDriver.class,
        "io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver");
  }

  @Override
  public BenchmarkDriver newDriver() {
    return new PulsarBenchmarkDriver();
  }

  /**
   * A field misspelled inside a section is named by its whole path; the section's fields listed.
   */
  @Test
  void misspelledNestedFieldIsNamedByItsPath() throws Exception {
    String file = "src/test/resources/misspelled-pulsar.yaml";
    assertEquals(
        file
            + ":8: unknown field 'client.persistence.ackQuorom' (did you mean"
            + " 'client.persistence.ackQuorum'?); allowed: ackQuorum, deduplicationEnabled,"
            + " ensembleSize, writeQuorum",
        refusal(file, Map.of()));
    assertEquals(
        "--driver-set consumer.subscriptionType=Fanout: expected one of Exclusive, Shared,"
            + " Failover, Key_Shared, got 'Fanout'",
        refusal("pulsar.yaml", Map.of("consumer.subscriptionType", "Fanout")));
  }

  /**
   * Drivers that start at once against a tenant none of them finds (workers on several hosts, or
   * test JVMs side by side, on a fresh broker) all start: the ones that lose the race to create it
   * use the tenant the winner made. The broker may answer a lost race with 500 rather than 409.
   */
  @Test
  void driversStartingAtOnceShareTheTenantOneOfThemCreates() throws Exception {
    String tenant = "plumb-race-" + Long.toHexString(System.nanoTime());
    Map<String, String> overrides = Map.of("client.namespacePrefix", tenant + "/ns");
    int drivers = 6;
    ExecutorService pool = Executors.newFixedThreadPool(drivers);
    List<PulsarBenchmarkDriver> started = new ArrayList<>();
    try (PulsarAdmin admin =
        PulsarAdmin.builder().serviceHttpUrl("http://127.0.0.1:8080").build()) {
      try {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<PulsarBenchmarkDriver>> starts = new ArrayList<>();
        for (int i = 0; i < drivers; i++) {
          starts.add(
              pool.submit(
                  () -> {
                    go.await();
                    return driver("pulsar.yaml", overrides);
                  }));
        }
        go.countDown();
        List<String> failures = new ArrayList<>();
        for (Future<PulsarBenchmarkDriver> start : starts) {
          try {
            started.add(start.get(60, TimeUnit.SECONDS));
          } catch (ExecutionException e) {
            failures.add(e.getCause().toString().lines().findFirst().orElse(""));
          }
        }
        assertEquals(List.of(), failures, "drivers that did not start");
        Set<String> namespaces = new HashSet<>();
        for (PulsarBenchmarkDriver driver : started) {
          namespaces.add(driver.brokerFacts().get("pulsar.namespace"));
        }
        assertEquals(drivers, namespaces.size(), "each driver its own namespace: " + namespaces);
        assertEquals(Set.copyOf(admin.namespaces().getNamespaces(tenant)), namespaces);
      } finally {
        pool.shutdownNow();
        for (PulsarBenchmarkDriver driver : started) {
          driver.close();
        }
        if (admin.tenants().getTenants().contains(tenant)) {
          admin.tenants().deleteTenant(tenant); // its namespaces went with the drivers
        }
      }
    }
  }
}
