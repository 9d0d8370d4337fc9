package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The driver as a {@code LeaderLocator} on the local 3-node cluster ({@code deploy/local/kafka.sh
 * start --nodes 3}; runs only with {@code -Pcluster}): it names the node that leads partition 0, as
 * the node's state file names it, and follows the leadership when that node stops.
 */
class KafkaLeaderClusterTest {

  @BeforeAll
  static void clusterHasThreeBrokers() throws Exception {
    LocalKafkaCluster.requireThreeBrokers();
  }

  @AfterAll
  static void clusterIsWholeAgain() throws Exception {
    LocalKafkaCluster.makeWhole();
  }

  @Test
  void namesTheLeaderOfPartitionZeroAndFollowsItWhenItStops() throws Exception {
    String topic = "plumb-test-leader-" + System.nanoTime();
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(Path.of("kafka-replicated.yaml"), Map.of()));
      driver.createTopic(topic, 3).get(60, TimeUnit.SECONDS);
      assertEquals("leader of partition 0", driver.leaderMeaning());

      Optional<String> leader = driver.leaderOf(topic);
      assertTrue(leader.isPresent(), "no leader named for a topic just created");
      Map<String, String> names = LocalKafkaCluster.nodeNames();
      assertEquals(3, names.size(), "node.env files: " + names);
      assertTrue(names.containsValue(leader.get()), leader.get() + " is none of " + names);

      String node = LocalKafkaCluster.nodeNamed(leader.get());
      LocalKafkaCluster.stopNode(node);
      try {
        String next = awaitOtherLeader(driver, topic, leader.get());
        assertNotEquals(leader.get(), next);
        assertTrue(names.containsValue(next), next + " is none of " + names);
      } finally {
        LocalKafkaCluster.startNode(node);
      }
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    }
  }

  /** The leader named once {@code old} has stopped; a question may fail while metadata moves. */
  private static String awaitOtherLeader(KafkaBenchmarkDriver driver, String topic, String old)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String last = "nothing";
    while (System.nanoTime() < deadline) {
      try {
        Optional<String> leader = driver.leaderOf(topic);
        if (leader.isPresent() && !leader.get().equals(old)) {
          return leader.get();
        }
        last = leader.orElse("no leader");
      } catch (Exception e) {
        last = e.toString();
      }
      Thread.sleep(200);
    }
    return fail("the leader of partition 0 is still " + old + " 30 s after it stopped: " + last);
  }
}
