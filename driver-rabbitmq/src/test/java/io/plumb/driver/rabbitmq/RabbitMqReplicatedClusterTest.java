package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The replicated files and their single-copy matches against the 3-node cluster ({@code
 * deploy/local/rabbitmq.sh start --nodes 3}; clients connect to node 1): each runs through the
 * whole engine with nothing lost, and the result records the copies and nodes the broker reports.
 * Runs only in the {@code cluster} Maven profile.
 */
class RabbitMqReplicatedClusterTest {
  private static final SmokeRun RUN = SmokeRun.standard();
  private static final int NODES = 3;

  private static Set<String> clusterNodes;

  @TempDir Path scratch;

  @BeforeAll
  static void threeNodesRunning() throws Exception {
    Broker.requireReachable(5672, ManagementApi.PORT);
    clusterNodes = new TreeSet<>(Broker.runningNodes());
    assertEquals(
        NODES,
        clusterNodes.size(),
        "running nodes " + clusterNodes + ": start deploy/local/rabbitmq.sh start --nodes 3");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "rabbitmq-quorum-replicated.yaml, 3",
    "rabbitmq-stream-protocol-replicated.yaml, 3",
    "rabbitmq-classic-mirrored.yaml, 3",
    "rabbitmq-quorum.yaml, 1",
    "rabbitmq-stream-protocol.yaml, 1",
  })
  void fileRunsWithNothingLostAndReportsTheCopiesTheBrokerHolds(String file, int copies) {
    RunReport report = RUN.run(Path.of(file), Map.of(), scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals(String.valueOf(copies), facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals(String.valueOf(NODES), facts.get(BrokerFactNames.NODES), facts.toString());
    Set<String> replicaNodes = nodes(facts.get(BrokerFactNames.REPLICA_NODES));
    assertEquals(copies, replicaNodes.size(), facts.toString());
    assertTrue(clusterNodes.containsAll(replicaNodes), facts + " vs " + clusterNodes);
  }

  /**
   * The run's result names the windows the clients ran with, as overridden on the command line: per
   * producer and per consumer, on the 3 partitions of the smoke run.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "rabbitmq-quorum-replicated.yaml, maxUnconfirmed, 16, prefetchCount, 64, 48, 192",
    "rabbitmq-classic-mirrored.yaml, maxUnconfirmed, 0, prefetchCount, 100, unbounded, 300",
    "rabbitmq-stream-protocol-replicated.yaml, maxUnconfirmedMessages, 50, initialCredits, 2, 150,"
        + " 6 chunks",
  })
  void theResultReportsTheWindowsInForce(
      String file,
      String sendSetting,
      String sendValue,
      String receiveSetting,
      String receiveValue,
      String sendWindow,
      String receiveWindow) {
    RunReport report =
        RUN.run(
            Path.of(file), Map.of(sendSetting, sendValue, receiveSetting, receiveValue), scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals(sendWindow, facts.get(BrokerFactNames.SEND_WINDOW), facts.toString());
    assertTrue(
        facts.get(BrokerFactNames.SEND_WINDOW_LIMIT).startsWith(sendSetting + " " + sendValue),
        facts.toString());
    assertEquals(receiveWindow, facts.get(BrokerFactNames.RECEIVE_WINDOW), facts.toString());
    assertTrue(
        facts
            .get(BrokerFactNames.RECEIVE_WINDOW_LIMIT)
            .startsWith(receiveSetting + " " + receiveValue),
        facts.toString());
  }

  /**
   * The AMQP driver reads replication from a witness queue declared like the topic's queues, since
   * those are declared only when consumers arrive: the real partition queues must have the same
   * members.
   */
  @Test
  void partitionQueuesHaveTheMembersTheFactsReport() throws Exception {
    RabbitMqBenchmarkDriver driver = new RabbitMqBenchmarkDriver();
    driver.initialize(
        DriverSettingsReader.config(Path.of("rabbitmq-quorum-replicated.yaml"), Map.of()));
    try (driver) {
      String topic = DriverRoundTrip.newTopicName("plumb-test-replicated");
      driver.createTopic(topic, DriverRoundTrip.PARTITIONS).get(60, TimeUnit.SECONDS);
      Set<String> reported = nodes(driver.brokerFacts().get(BrokerFactNames.REPLICA_NODES));
      assertEquals(clusterNodes, reported);
      try (BenchmarkConsumer consumer = consumer(driver, topic)) {
        for (int p = 0; p < DriverRoundTrip.PARTITIONS; p++) {
          String queue = RoutingKeys.queueName(topic, "sub", p);
          assertEquals(reported, Broker.members(queue), queue);
        }
      }
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
    }
  }

  /**
   * Queues declared over one connection are led by the node it reached unless the broker is told to
   * spread them: with the default {@code balanced} locator every node leads some of a topic's
   * queues, and the result's {@code rabbitmq.queueLeaders} counts what the broker reports for each
   * real partition queue. The mirrored file's policy gives each queue its 3 copies and is gone with
   * the topic.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"rabbitmq-quorum-replicated.yaml", "rabbitmq-classic-mirrored.yaml"})
  void queueLeadersAreSpreadOverTheNodesAndReported(String file) throws Exception {
    int partitions = 6;
    Set<String> policiesBefore = Broker.policyNames();
    RabbitMqBenchmarkDriver driver = Broker.open(file, Map.of());
    try (driver) {
      String topic = DriverRoundTrip.newTopicName("plumb-test-spread") + "-0";
      driver.createTopic(topic, partitions).get(60, TimeUnit.SECONDS);
      Map<String, Integer> ledByBroker = new TreeMap<>();
      try (BenchmarkConsumer consumer = consumer(driver, topic)) {
        for (int p = 0; p < partitions; p++) {
          String queue = RoutingKeys.queueName(topic, "sub", p);
          assertEquals(clusterNodes, Broker.members(queue, NODES), queue);
          ledByBroker.merge(Broker.leader(queue), 1, Integer::sum);
        }
        assertEquals(clusterNodes, ledByBroker.keySet(), "leaders " + ledByBroker);
        assertEquals(
            spread(ledByBroker),
            driver.brokerFacts().get(ClusterView.LEADERS_FACT),
            driver.brokerFacts().toString());
      }
      if (file.contains("mirrored")) {
        assertEquals(1, Broker.policyNames().size() - policiesBefore.size(), "one policy added");
      }
      driver.deleteTopics(List.of(topic)).get(60, TimeUnit.SECONDS);
      assertEquals(policiesBefore, Broker.policyNames(), "the policy went with the topic");
    }
  }

  private static String spread(Map<String, Integer> ledByNode) {
    StringBuilder text = new StringBuilder();
    ledByNode.forEach(
        (node, count) -> text.append(text.length() == 0 ? "" : ",").append(node + "=" + count));
    return text.toString();
  }

  private static BenchmarkConsumer consumer(BenchmarkDriver driver, String topic) throws Exception {
    return driver
        .createConsumer(topic, "sub", DriverRoundTrip.discarding())
        .get(60, TimeUnit.SECONDS);
  }

  private static Set<String> nodes(String commaSeparated) {
    return commaSeparated == null
        ? Set.of()
        : new TreeSet<>(Arrays.asList(commaSeparated.split(",")));
  }
}
