package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each shipped single-node driver file, run through the whole engine against the local broker:
 * keyed load over 3 partitions, two subscriptions of two consumers, every message acknowledged and
 * received exactly once by each subscription; the result records what the server reported: one node
 * and, for JetStream, one copy of the stream on that node.
 */
class NatsBenchmarkRunTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @ParameterizedTest
  @ValueSource(strings = {"nats.yaml", "nats-jetstream.yaml", "nats-jetstream-memory.yaml"})
  void shippedFileDeliversEveryMessageThroughTheEngine(String file) {
    RunReport report = RUN.run(Path.of(file), Map.of(), scratch);
    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("1", facts.get("nodes"), facts.toString());
    assertFalse(facts.getOrDefault("brokerVersion", "").isEmpty(), facts.toString());
    if (file.equals("nats.yaml")) {
      // Core NATS stores nothing: there are no copies to report.
      assertEquals(null, facts.get("replicas"), facts.toString());
    } else {
      assertEquals("1", facts.get("replicas"), facts.toString());
      assertEquals(1, facts.get("replicaNodes").split(",").length, facts.toString());
    }
  }
}
