package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicated driver file and its single-copy match on the local 3-node cluster ({@code
 * deploy/local/kafka.sh start --nodes 3}; runs only with {@code -Pcluster}), through the whole
 * engine: every message delivered once, and the copies the brokers report in the result.
 */
class KafkaReplicatedClusterTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @BeforeAll
  static void clusterHasThreeBrokers() throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092"))) {
      int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
      if (brokers != 3) {
        fail(
            "the Kafka cluster at 127.0.0.1:9092 has "
                + brokers
                + " broker(s), not 3: start it with deploy/local/kafka.sh start --nodes 3");
      }
    }
  }

  @Test
  void replicatedFileKeepsThreeCopiesOnThreeBrokers() {
    RunReport report = RUN.run(Path.of("kafka-replicated.yaml"), Map.of(), scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("3", facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals("1,2,3", facts.get(BrokerFactNames.REPLICA_NODES), facts.toString());
    assertEquals("3", facts.get(BrokerFactNames.NODES), facts.toString());
    assertTrue(facts.get("topic.min.insync.replicas").startsWith("2 "), facts.toString());
  }

  @Test
  void singleCopyFileKeepsOneCopyOnTheCluster() {
    RunReport report = RUN.run(Path.of("kafka.yaml"), Map.of(), scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("1", facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals("3", facts.get(BrokerFactNames.NODES), facts.toString());
  }
}
