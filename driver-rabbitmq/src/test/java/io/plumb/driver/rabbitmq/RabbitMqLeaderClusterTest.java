package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.Leaders;
import io.plumb.testkit.WholeCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The AMQP driver as a {@code LeaderLocator} on the local 3-node cluster ({@code
 * deploy/local/rabbitmq.sh start --nodes 3}; runs only with {@code -Pcluster}): it names the node
 * leading the topic's queue, as that node's state file names it, and follows the leadership when
 * that node stops.
 */
class RabbitMqLeaderClusterTest {

  @RegisterExtension static final WholeCluster CLUSTER = LocalRabbitMqCluster.WHOLE_AFTER_ALL_TESTS;

  @Test
  void namesTheQuorumQueueLeaderAndFollowsItWhenItStops() throws Exception {
    String topic = DriverRoundTrip.newTopicName("plumb-test-leader");
    RabbitMqBenchmarkDriver driver = Broker.open("rabbitmq-quorum-replicated.yaml", Map.of());
    try (driver) {
      assertEquals("quorum queue leader", driver.targets().get("leader"));
      driver.createTopic(topic, 2).get(60, TimeUnit.SECONDS);
      try (BenchmarkConsumer consumer = consumer(driver, topic)) {
        Optional<String> leader = driver.locate("leader", topic);
        assertTrue(leader.isPresent(), "no leader named for a queue just declared");
        Map<String, String> names = LocalRabbitMqCluster.nodeNames();
        assertTrue(names.containsValue(leader.get()), leader.get() + " is none of " + names);
        assertEquals(queueField(RoutingKeys.queueName(topic, "sub", 0), "leader"), leader.get());

        String node = LocalRabbitMqCluster.nodeNamed(leader.get());
        LocalRabbitMqCluster.stopNode(node);
        try {
          String next = Leaders.awaitOther(driver, topic, leader.get(), Duration.ofSeconds(60));
          assertNotEquals(leader.get(), next);
          assertTrue(names.containsValue(next), next + " is none of " + names);
        } finally {
          LocalRabbitMqCluster.startNode(node);
        }
      }
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    }
  }

  /** The weak file's classic queue has no leader but its node, which the driver names. */
  @Test
  void namesTheNodeOfAClassicQueue() throws Exception {
    String topic = DriverRoundTrip.newTopicName("plumb-test-classic-node");
    RabbitMqBenchmarkDriver driver = Broker.open("rabbitmq-classic-weak.yaml", Map.of());
    try (driver) {
      assertEquals("node of the classic queue", driver.targets().get("leader"));
      driver.createTopic(topic, 1).get(60, TimeUnit.SECONDS);
      assertEquals(Optional.empty(), driver.locate("leader", topic), "no queue yet, no leader");
      try (BenchmarkConsumer consumer = consumer(driver, topic)) {
        Optional<String> node = driver.locate("leader", topic);
        assertEquals(Optional.of(queueField(RoutingKeys.queueName(topic, "sub", 0), "node")), node);
        assertTrue(LocalRabbitMqCluster.nodeNames().containsValue(node.get()), node.get());
      }
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    }
  }

  /** The stream driver names its first partition stream's leader by the address it advertises. */
  @Test
  void streamDriverNamesTheStreamLeader() throws Exception {
    String topic = DriverRoundTrip.newTopicName("plumb-test-stream-leader");
    RabbitMqStreamBenchmarkDriver driver =
        Broker.openStream("rabbitmq-stream-protocol-replicated.yaml", Map.of());
    try (driver) {
      assertEquals("stream leader", driver.targets().get("leader"));
      driver.createTopic(topic, 1).get(60, TimeUnit.SECONDS);
      Optional<String> leader = driver.locate("leader", topic);
      assertTrue(leader.isPresent(), "no leader named for a stream just created");
      String node = LocalRabbitMqCluster.nodeAnswering(leader.get());
      assertEquals(
          queueField(StreamNames.partition(topic, 0), "node"),
          LocalRabbitMqCluster.nodeNames().get(node));
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    }
  }

  /** A queue's {@code field} as the cluster's management API reports it ("leader", "node"). */
  private static String queueField(String queue, String field) throws Exception {
    return LocalRabbitMqCluster.management().get("queues/%2F/" + queue).path(field).asText();
  }

  private static BenchmarkConsumer consumer(RabbitMqBenchmarkDriver driver, String topic)
      throws Exception {
    return driver
        .createConsumer(topic, "sub", DriverRoundTrip.discarding())
        .get(60, TimeUnit.SECONDS);
  }
}
