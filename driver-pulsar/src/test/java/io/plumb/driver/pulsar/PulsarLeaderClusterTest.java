package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.fault.ClusterNode;
import io.plumb.fault.LocalCluster;
import io.plumb.testkit.DriverFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.common.policies.data.ManagedLedgerInternalStats.LedgerInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The driver's fault targets against the 3-bookie cluster of {@code deploy/local/pulsar.sh start
 * --nodes 3}: what it names equals the admin API's own view, names a node of the cluster's state
 * files, and the bookie follows the ledger when that bookie stops.
 */
class PulsarLeaderClusterTest {
  private static final LocalCluster CLUSTER = LocalCluster.of("pulsar");

  /** Whatever a test stopped runs again before the next cluster test. */
  @AfterAll
  static void clusterWhole() throws Exception {
    PulsarClusterNodes.startStopped(CLUSTER);
  }

  /**
   * What each target word names equals the broker's own view through an admin client of the test's
   * own: {@code leader} and {@code broker-owner} are the topic's owner from lookupTopic (the
   * cluster's broker node), {@code bookie} the first bookie of the last ensemble of the current
   * ledger in the internal stats (a numbered node). No {@code followers}: bookies follow no broker.
   */
  @Test
  void namesTheOwnerAndABookieAsTheAdminApiReportsThem() throws Exception {
    try (PulsarBenchmarkDriver driver = driver("pulsar-replicated.yaml");
        PulsarAdmin admin = PulsarAdmin.builder().serviceHttpUrl("http://127.0.0.1:8080").build()) {
      SentTopic sent = SentTopic.create(driver, "owner");
      String topic = sent.topic();
      assertEquals(Set.of("leader", "broker-owner", "bookie"), driver.targets().keySet());

      String partition = topic + "-partition-0";
      String owner = admin.lookups().lookupTopic(partition).replaceFirst("^pulsar://", "");
      assertEquals(owner, driver.locate("leader", topic).orElseThrow());
      assertEquals(owner, driver.locate("broker-owner", topic).orElseThrow());
      ClusterNode ownerNode = PulsarClusterNodes.nodeNamed(CLUSTER, owner);
      assertEquals("broker", ownerNode.name(), owner + " is " + ownerNode);

      List<LedgerInfo> ledgers = admin.topics().getInternalStats(partition, true).ledgers;
      String metadata = ledgers.get(ledgers.size() - 1).metadata;
      Matcher ensembles = Pattern.compile("ensembles=\\{(.*?)}").matcher(metadata);
      assertTrue(ensembles.find(), metadata);
      Matcher last = Pattern.compile("\\d+=\\[([^\\]]*)]").matcher(ensembles.group(1));
      String lastEnsemble = null;
      while (last.find()) {
        lastEnsemble = last.group(1);
      }
      assertTrue(lastEnsemble != null, metadata);
      String firstBookie = lastEnsemble.split(",")[0].trim();
      assertEquals(firstBookie, driver.locate("bookie", topic).orElseThrow());
      assertTrue(PulsarClusterNodes.nodeNamed(CLUSTER, firstBookie).numbered(), firstBookie);
      sent.remove(driver);
    }
  }

  /** The replicated file's ledgers span all three bookies; the answer is one of them. */
  @Test
  void namesABookieOfTheReplicatedTopicsLedger() throws Exception {
    try (PulsarBenchmarkDriver driver = driver("pulsar-replicated.yaml")) {
      SentTopic sent = SentTopic.create(driver, "leader");
      NamedBookie bookie = NamedBookie.of(driver, sent.topic());
      assertEquals(bookie.name(), bookie.node().values().get("NAME"));
      sent.remove(driver);
    }
  }

  /**
   * With one copy (pulsar.yaml) the ledger's ensemble is one bookie; stopping it makes the broker
   * replace it on the next write (a new ensemble in the ledger), and the answer moves with it.
   */
  @Test
  void followsTheLedgerWhenItsBookieStops() throws Exception {
    try (PulsarBenchmarkDriver driver = driver("pulsar.yaml")) {
      SentTopic sent = SentTopic.create(driver, "leader");
      String topic = sent.topic();
      NamedBookie named = NamedBookie.of(driver, topic);
      String first = named.name();
      ClusterNode stopped = named.node();

      PulsarClusterNodes.script(CLUSTER, "stop-node", stopped.name());
      try {
        Optional<String> next = Optional.empty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
          // Failures allowed: the write that finds the bookie gone may fail.
          send(sent.producer(), 5);
          next = driver.bookieOf(topic);
          if (next.isPresent() && !next.get().equals(first)) {
            break;
          }
          Thread.sleep(500);
        }
        assertTrue(next.isPresent(), "no answer after " + stopped + " stopped");
        assertNotEquals(first, next.get(), "the answer did not move off the stopped bookie");
        ClusterNode now = PulsarClusterNodes.nodeNamed(CLUSTER, next.get());
        assertTrue(now.numbered() && now.running(), next.get() + " is " + now);
        assertEquals(0, send(sent.producer(), 20), "sends after the ensemble change");
      } finally {
        PulsarClusterNodes.script(CLUSTER, "start-node", stopped.name());
      }
      sent.remove(driver);
    }
  }

  /** The bookie the driver names for a topic now, and its node: one of the cluster's bookies. */
  private record NamedBookie(String name, ClusterNode node) {

    static NamedBookie of(PulsarBenchmarkDriver driver, String topic) throws Exception {
      String name = driver.bookieOf(topic).orElseThrow();
      ClusterNode node = PulsarClusterNodes.nodeNamed(CLUSTER, name);
      assertTrue(node.numbered(), name + " is " + node + ", not a bookie");
      return new NamedBookie(name, node);
    }
  }

  /**
   * A topic of one partition the test created, with its producer, to which 20 messages were sent
   * and confirmed: the topic then has a ledger with an owner and an ensemble.
   */
  private record SentTopic(String topic, BenchmarkProducer producer) {

    static SentTopic create(PulsarBenchmarkDriver driver, String label) throws Exception {
      String topic =
          driver.topicNamePrefix() + "-" + label + "-" + Long.toHexString(System.nanoTime());
      driver.createTopic(topic, 1).get(30, TimeUnit.SECONDS);
      BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);
      assertEquals(0, send(producer, 20));
      return new SentTopic(topic, producer);
    }

    void remove(PulsarBenchmarkDriver driver) throws Exception {
      producer.close();
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  private static PulsarBenchmarkDriver driver(String file) throws Exception {
    return DriverFiles.open(PulsarBenchmarkDriver::new, Path.of(file), Map.of());
  }

  /** Sends {@code count} messages and waits for each to complete; returns how many failed. */
  private static int send(BenchmarkProducer producer, int count) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(count);
    int[] failed = {0};
    for (int i = 0; i < count; i++) {
      producer.send(
          null,
          ("m" + i).getBytes(StandardCharsets.UTF_8),
          i,
          (token, failure) -> {
            if (failure != null) {
              synchronized (failed) {
                failed[0]++;
              }
            }
            done.countDown();
          });
    }
    assertTrue(done.await(45, TimeUnit.SECONDS), "sends did not complete within 45 s");
    synchronized (failed) {
      return failed[0];
    }
  }
}
