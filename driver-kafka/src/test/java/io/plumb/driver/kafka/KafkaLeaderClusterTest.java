package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.testkit.Leaders;
import io.plumb.testkit.WholeCluster;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The driver as a {@code LeaderLocator} on the local 3-node cluster ({@code deploy/local/kafka.sh
 * start --nodes 3}; runs only with {@code -Pcluster}): the node it names as {@code leader} is the
 * one the broker's own metadata gives as partition 0's leader (describeTopics), before and after
 * the test stops that node.
 */
class KafkaLeaderClusterTest {

  @RegisterExtension static final WholeCluster CLUSTER = LocalKafkaCluster.WHOLE_AFTER_ALL_TESTS;

  @Test
  void namesTheLeaderOfPartitionZeroAsTheBrokerSeesItAndFollowsItWhenItStops() throws Exception {
    String topic = "plumb-test-leader-" + System.nanoTime();
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver();
        Admin admin = LocalKafkaCluster.admin()) {
      driver.initialize(DriverSettingsReader.config(Path.of("kafka-replicated.yaml"), Map.of()));
      driver.createTopic(topic, 3).get(60, TimeUnit.SECONDS);
      assertEquals(
          Map.of(
              "leader", "leader of partition 0", "followers", "brokers but partition 0's leader"),
          driver.targets());
      assertThrows(IllegalArgumentException.class, () -> driver.locate("bookie", topic));

      String leader = driver.locate("leader", topic).orElseThrow();
      // The broker's own view, through an admin client of the test's own.
      assertEquals(leaderOfPartitionZero(admin, topic), leader);
      Map<String, String> names = LocalKafkaCluster.nodeNames();
      assertEquals(3, names.size(), "node.env files: " + names);
      assertTrue(names.containsValue(leader), leader + " is none of " + names);

      String node = LocalKafkaCluster.nodeNamed(leader);
      LocalKafkaCluster.stopNode(node);
      try {
        String next = Leaders.awaitOther(driver, topic, leader, Duration.ofSeconds(30));
        assertNotEquals(leader, next);
        assertEquals(leaderOfPartitionZero(admin, topic), next, "after " + node + " stopped");
      } finally {
        LocalKafkaCluster.startNode(node);
      }
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    }
  }

  /** The node id describeTopics gives as partition 0's leader. */
  private static String leaderOfPartitionZero(Admin admin, String topic) throws Exception {
    TopicPartitionInfo partition =
        admin
            .describeTopics(List.of(topic))
            .allTopicNames()
            .get(30, TimeUnit.SECONDS)
            .get(topic)
            .partitions()
            .stream()
            .filter(p -> p.partition() == 0)
            .findFirst()
            .orElseThrow();
    return partition.leader().idString();
  }
}
