package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
    LocalKafkaCluster.requireThreeBrokers();
  }

  @Test
  void replicatedFileKeepsThreeCopiesOnThreeBrokers() {
    Map<String, String> facts = factsOfCompleteRun("kafka-replicated.yaml");
    assertEquals("3", facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals("1,2,3", facts.get(BrokerFactNames.REPLICA_NODES), facts.toString());
    assertEquals("3", facts.get(BrokerFactNames.NODES), facts.toString());
    assertTrue(facts.get("topic.min.insync.replicas").startsWith("2 "), facts.toString());
  }

  @Test
  void singleCopyFileKeepsOneCopyOnTheCluster() {
    Map<String, String> facts = factsOfCompleteRun("kafka.yaml");
    assertEquals("1", facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals("3", facts.get(BrokerFactNames.NODES), facts.toString());
  }

  /** The broker facts of a run of {@code file}, which must have delivered every message once. */
  private Map<String, String> factsOfCompleteRun(String file) {
    RunReport report = RUN.run(Path.of(file), Map.of(), scratch);
    assertEquals(List.of(), RUN.deliveryProblems(report));
    return report.brokerFacts();
  }
}
