package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.driver.BrokerFactNames;
import io.plumb.input.BadInputException;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each shipped driver file, run through the whole engine against the local standalone broker (one
 * bookie): keyed load over 3 partitions, two subscriptions of two consumers, every message
 * acknowledged and received exactly once by each subscription, and the result says one copy on one
 * node. The replicated file is refused before anything is created.
 */
class PulsarBenchmarkRunTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  /** The windows are over the smoke run's 3 partitions: a producer and a consumer per partition. */
  @ParameterizedTest
  @CsvSource({
    "pulsar.yaml, unbounded, 30000",
    "pulsar-throughput.yaml, 300000, 30000",
    "pulsar-latency.yaml, unbounded, 3000"
  })
  void shippedFileDeliversEveryMessageThroughTheEngine(
      String file, String sendWindow, String receiveWindow) {
    RunReport report = RUN.run(Path.of(file), Map.of(), scratch);
    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("1", facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals("1", facts.get(BrokerFactNames.NODES), facts.toString());
    assertEquals(facts.get("pulsar.bookies"), facts.get(BrokerFactNames.REPLICA_NODES));
    assertEquals(sendWindow, facts.get(BrokerFactNames.SEND_WINDOW), facts.toString());
    assertEquals(receiveWindow, facts.get(BrokerFactNames.RECEIVE_WINDOW), facts.toString());
  }

  @Test
  // Compares the whole broker before and after: run alone, while no other test JVM adds to it.
  @Tag("broker-wide")
  void replicatedFileIsRefusedOnOneBookieBeforeAnyLoad() throws Exception {
    try (PulsarAdmin admin =
        PulsarAdmin.builder().serviceHttpUrl("http://127.0.0.1:8080").build()) {
      List<String> namespacesBefore = namespaces(admin);

      BadInputException refused =
          assertThrows(
              BadInputException.class,
              () -> RUN.run(Path.of("pulsar-replicated.yaml"), Map.of(), scratch));

      assertEquals(
          "pulsar-replicated.yaml:24: field 'client.persistence.ensembleSize': asks for ledgers on"
              + " 3 bookies (3 copies of each entry) but the Pulsar cluster at"
              + " http://127.0.0.1:8080 has 1 bookie (start 3: deploy/local/pulsar.sh start"
              + " --nodes 3)",
          refused.getMessage());
      // Refused before the driver created its namespace, let alone a topic.
      assertEquals(namespacesBefore, namespaces(admin));
    }
  }

  private static List<String> namespaces(PulsarAdmin admin) throws Exception {
    return admin.tenants().getTenants().contains("benchmark")
        ? admin.namespaces().getNamespaces("benchmark")
        : List.of();
  }
}
