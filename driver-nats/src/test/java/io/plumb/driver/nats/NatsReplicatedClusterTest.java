package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicated driver file on the real 3-node cluster ({@code deploy/local/nats.sh start --nodes
 * 3}, run by the {@code cluster} Maven profile only): the run delivers every message exactly once,
 * and the server reports 3 copies of the stream on 3 different nodes of a 3-node cluster.
 */
class NatsReplicatedClusterTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @Test
  void replicatedFileKeepsThreeCopiesOnThreeNodesAndLosesNothing() {
    assertThreeCopies(RUN.run(Path.of("nats-jetstream-replicated.yaml"), Map.of(), scratch));
  }

  /** OpenMessaging Benchmark's NATS file asks for 3 replicas and runs unchanged on the cluster. */
  @Test
  void ombFormatFileAskingForThreeReplicasRuns() throws Exception {
    Path omb = scratch.resolve("omb-nats-3.yaml");
    Files.writeString(omb, LocalNats.OMB_FILE_THREE_REPLICAS);
    assertThreeCopies(RUN.run(omb, Map.of(), scratch));
  }

  private static void assertThreeCopies(RunReport report) {
    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("3", facts.get("replicas"), "copies the server reports: " + facts);
    assertEquals("3", facts.get("nodes"), "nodes the server reports: " + facts);
    // The nodes as deploy/local/nats.sh names them: every one holds a copy.
    assertEquals(
        Set.of("n1", "n2", "n3"),
        Set.of(facts.get("replicaNodes").split(",")),
        "nodes holding the copies: " + facts);
    assertTrue(facts.get("brokerVersion").matches("\\d+\\.\\d+\\.\\d+.*"), facts.toString());
  }
}
