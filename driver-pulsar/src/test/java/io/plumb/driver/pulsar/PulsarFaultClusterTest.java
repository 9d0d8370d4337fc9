package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.SmokeRun;
import io.plumb.fault.FaultOutcome;
import io.plumb.fault.LocalCluster;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicated file under faults on the 3-bookie cluster of {@code deploy/local/pulsar.sh start
 * --nodes 3}, through the whole engine: one partition at 2,000 msg/s of 1 KB for 40 s, the fault in
 * the middle, the framework killing and restarting the node.
 */
class PulsarFaultClusterTest {
  private static final SmokeRun RUN = new SmokeRun(1, 1, 1, 1, 2_000, Duration.ofSeconds(40), 1024);
  private static final LocalCluster CLUSTER = LocalCluster.of("pulsar");

  @TempDir Path scratch;

  /** Whatever a run left down (a failed restart) runs again before the next cluster test. */
  @AfterAll
  static void clusterWhole() throws Exception {
    PulsarClusterNodes.startStopped(CLUSTER);
  }

  /**
   * Killing a bookie of the topic's current ledger (the "leader") loses no acknowledged message,
   * and publishing carries on: with 3 copies acknowledged at 2, the broker writes around the dead
   * bookie (deploy/local/pulsar.sh sets bookkeeper_delayEnsembleChange) until it is back. On a calm
   * host no publish stalls at all, so the unavailability may be absent; when a stall is seen it
   * ended within seconds.
   */
  @Test
  void killingTheLeaderBookieLosesNothingAndPublishingGoesOn() throws Exception {
    Path plan =
        plan(
            "faults:",
            "  - at: 12s",
            "    action: kill",
            "    target: leader",
            "    duration: 10s");
    RunReport report =
        RUN.runWithFaults(Path.of("pulsar-replicated.yaml"), plan, Map.of(), scratch);
    // The figures, for the record (target/surefire-reports/*-output.txt).
    System.out.println(report.counters() + "\n" + report.faults());

    Counters counters = report.counters();
    assertTrue(report.complete(), report.incompleteReason());
    assertEquals(0, counters.lost(), counters.toString());
    assertEquals(0, counters.inFlight(), counters.toString());
    assertEquals(1, report.faults().size(), report.faults().toString());
    FaultOutcome fault = report.faults().get(0);
    assertNull(fault.error(), fault.toString());
    assertEquals("kill", fault.action());
    assertTrue(List.of("1", "2", "3").containsAll(fault.nodes()), fault.toString());
    assertEquals(0, fault.acknowledgedLost(), fault.toString());
    assertEquals(0, fault.publishFailures(), fault.toString());
    assertTrue(fault.availableAgain(), fault.toString());
    if (fault.unavailableSeconds() != null) {
      assertTrue(fault.unavailableSeconds() < 10, fault.toString());
    }
    assertNotNull(fault.recoverySeconds(), "not recovered: " + fault);
    assertEquals(counters.acknowledged(), counters.sent(), counters.toString());
  }

  /**
   * Killing the one broker stops everything until it is back; then producers and consumers
   * reconnect by themselves. Every send completes (acknowledged, or failed by the 30 s send
   * timeout), and no acknowledged message is lost.
   */
  @Test
  void killingTheBrokerLosesNothingAndClientsReconnect() throws Exception {
    Path plan =
        plan(
            "faults:",
            "  - at: 5s",
            "    action: kill",
            "    target: node broker",
            "    duration: 3s");
    RunReport report =
        RUN.runWithFaults(Path.of("pulsar-replicated.yaml"), plan, Map.of(), scratch);
    // The figures, for the record (target/surefire-reports/*-output.txt).
    System.out.println(report.counters() + "\n" + report.faults());

    Counters counters = report.counters();
    assertTrue(report.complete(), report.incompleteReason());
    assertEquals(0, counters.lost(), counters.toString());
    assertEquals(0, counters.inFlight(), counters.toString());
    assertEquals(counters.sent(), counters.acknowledged() + counters.failed(), counters.toString());
    FaultOutcome fault = report.faults().get(0);
    assertNull(fault.error(), fault.toString());
    assertEquals(List.of("broker"), fault.nodes());
    assertNotNull(fault.unavailableSeconds(), fault.toString());
    assertTrue(fault.availableAgain(), "publishing never resumed: " + fault);
    assertEquals(0, fault.acknowledgedLost(), fault.toString());
  }

  private Path plan(String... lines) throws Exception {
    Path plan = scratch.resolve("plan-" + System.nanoTime() + ".yaml");
    Files.writeString(plan, String.join("\n", lines) + "\n");
    return plan;
  }
}
