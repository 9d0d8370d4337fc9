package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.input.BadInputException;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each shipped driver file, run through the whole engine against the single local broker: keyed
 * load over 3 partitions, two subscriptions of two consumers, every message acknowledged and
 * received exactly once by each subscription, and the copies the broker reports in the result.
 */
class KafkaBenchmarkRunTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @ParameterizedTest
  @ValueSource(
      strings = {"kafka.yaml", "kafka-throughput.yaml", "kafka-latency.yaml", "kafka-sync.yaml"})
  void shippedFileDeliversEveryMessageThroughTheEngine(String file) {
    RunReport report = RUN.run(Path.of(file), Map.of(), scratch);
    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("1", facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals("1", facts.get(BrokerFactNames.REPLICA_NODES), facts.toString());
    assertEquals("1", facts.get(BrokerFactNames.NODES), facts.toString());
    assertTrue(
        facts.get(BrokerFactNames.BROKER_VERSION).matches("metadata\\.version \\d+"),
        facts.toString());
  }

  /** Three copies cannot be placed on one broker: refused in one line before any topic exists. */
  @Test
  // Compares the whole broker before and after: run alone, while no other test JVM adds to it.
  @Tag("broker-wide")
  void replicatedFileIsRefusedOnOneBrokerBeforeAnyLoad() throws Exception {
    Path file = Path.of("kafka-replicated.yaml");
    int line = lineOf(file, "replicationFactor: 3");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092"))) {
      Set<String> before = admin.listTopics().names().get(10, TimeUnit.SECONDS);

      BadInputException e =
          assertThrows(BadInputException.class, () -> RUN.run(file, Map.of(), scratch));

      assertEquals(
          "kafka-replicated.yaml:"
              + line
              + ": field 'replicationFactor': asks for 3 copies but the Kafka cluster at"
              + " 127.0.0.1:9092,127.0.0.1:9094,127.0.0.1:9096 has 1 broker"
              + " (start 3: deploy/local/kafka.sh start --nodes 3)",
          e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
      assertEquals(before, admin.listTopics().names().get(10, TimeUnit.SECONDS), "topics");
    }
  }

  private static int lineOf(Path file, String text) throws IOException {
    List<String> lines = Files.readAllLines(file);
    int index = lines.indexOf(text);
    assertTrue(index >= 0, file + " has no line '" + text + "'");
    return index + 1;
  }
}
