package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.fault.FaultOutcome;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.testkit.LossAccounting;
import io.plumb.testkit.OneFault;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power loss of every node at one instant on the local 3-node cluster with the power-loss layer
 * ({@code deploy/local/nats.sh start --nodes 3 --power-loss-layer}; runs only with {@code
 * -Pcluster}), through the whole engine: what JetStream's sync policy decides. The replicated
 * stream (file, 3 replicas) at 2,000 msg/s of 1 KB, 5 s of warm-up, then 20 s measured with every
 * node's power lost 5 s in for 5 s, its consumer paused for the first 10 s (so the stream holds
 * acknowledged messages no consumer has received when the power goes).
 *
 * <p>With NATS's default sync policy (the file store fsynced every 2 minutes) the servers
 * acknowledged messages they had not written to disk: they are lost, and the run counts each one,
 * its final read (which saw the end of what the cluster kept) agreeing. With {@code sync always}
 * every acknowledged message was on disk on a majority: nothing is lost. The two need differently
 * configured servers: the test starts the cluster again with the other policy when it must, and
 * leaves it as it found it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NatsPowerLossClusterTest {
  private static final Duration FAULT_AT = Duration.ofSeconds(5);
  private static final Duration PAUSE = Duration.ofSeconds(10);

  private static String syncAtStart;

  @TempDir Path scratch;

  @BeforeAll
  static void clusterRunsOnThePowerLossLayer() throws Exception {
    LocalNatsCluster.requireThreeNodes();
    if (!LocalNatsCluster.powerLossLayer()) {
      throw new AssertionError(
          "the NATS cluster runs without the power-loss layer: start it with"
              + " deploy/local/nats.sh start --nodes 3 --power-loss-layer");
    }
    syncAtStart = LocalNatsCluster.sync();
  }

  @AfterAll
  static void clusterAsItWas() throws Exception {
    if (syncAtStart != null) {
      useSync(syncAtStart);
      LocalNatsCluster.makeWhole();
    }
  }

  @Test
  @Order(1)
  void defaultSyncLosesAcknowledgedMessagesAndCountsEachOne() throws Exception {
    PausedConsumerRun.Outcome outcome = runCounted("default", "nats-jetstream-replicated.yaml");
    String summary = summary(outcome);

    assertTrue(outcome.report().counters().lost() > 0, "acknowledged messages lost: " + summary);
    System.out.println(summary);
  }

  @Test
  @Order(2)
  void syncAlwaysLosesNothing() throws Exception {
    PausedConsumerRun.Outcome outcome = runCounted("always", "nats-jetstream-replicated-sync.yaml");
    String summary = summary(outcome);

    assertEquals(0, outcome.report().counters().lost(), summary);
    System.out.println(summary);
  }

  /**
   * {@code driverFile} on the cluster running with {@code sync}, as its result reports, and its
   * loss {@linkplain #assertCountedExactly counted exactly}.
   */
  private PausedConsumerRun.Outcome runCounted(String sync, String driverFile) throws Exception {
    useSync(sync);
    PausedConsumerRun.Outcome outcome = run(driverFile);
    assertEquals(sync, outcome.report().brokerFacts().get("nats.server.sync"), summary(outcome));
    assertCountedExactly(outcome);
    return outcome;
  }

  /** Starts the cluster again, with the layer, when it runs with another sync policy. */
  private static void useSync(String sync) throws Exception {
    if (!sync.equals(LocalNatsCluster.sync())) {
      LocalNatsCluster.restartWithLayer(sync);
    }
  }

  private PausedConsumerRun.Outcome run(String driverFile) throws Exception {
    // A drain wait longer than the durable's ack wait (10 s): a message delivered to the consumer
    // but not acknowledged when the power went comes again before the drain ends.
    Path plan =
        new OneFault("power-loss", "all", (int) FAULT_AT.toSeconds(), 5, 15)
            .writeTo(scratch.resolve("power-loss-all.yaml"));
    return PausedConsumerRun.run(
        Path.of(driverFile),
        plan,
        2_000,
        Duration.ofSeconds(5),
        Duration.ofSeconds(20),
        PAUSE,
        FAULT_AT,
        scratch);
  }

  /**
   * The run's loss is exactly what its parts count: every send acknowledged or failed, nothing in
   * flight, the final read ran to the end the cluster reported, and the messages lost are those the
   * fault and the time before it lost, no more and no fewer. And something was at stake: the
   * consumer was paused, and the stream held messages it had not received before the power went.
   */
  private static void assertCountedExactly(PausedConsumerRun.Outcome outcome) {
    RunReport report = outcome.report();
    String summary = summary(outcome);
    Counters counters = report.counters();
    assertTrue(report.complete(), summary);
    assertEquals(1, outcome.pausedConsumers(), "consumers paused: " + summary);
    assertTrue(outcome.mostUndelivered() > 0, "undelivered before the fault: " + summary);
    assertEquals(counters.sent(), counters.acknowledged() + counters.failed(), summary);
    assertEquals(0, counters.inFlight(), summary);
    assertTrue(report.finalRead().ran(), "final read: " + summary);
    assertEquals(1, report.faults().size(), summary);
    FaultOutcome fault = report.faults().get(0);
    assertNull(fault.error(), summary);
    assertEquals("power-loss", fault.action(), summary);
    assertEquals(3, fault.nodes().size(), summary);
    // The power loss lost every one of them, however long before it they were acknowledged.
    LossAccounting.assertEveryLossChargedToTheFault(report, summary);
  }

  private static String summary(PausedConsumerRun.Outcome outcome) {
    RunReport report = outcome.report();
    return report.driverName()
        + ": "
        + report.counters()
        + ", consumers paused "
        + outcome.pausedConsumers()
        + ", most undelivered before the fault "
        + outcome.mostUndelivered()
        + ", final read "
        + report.finalRead()
        + ", before the first fault "
        + report.beforeFirstFault()
        + ", faults "
        + report.faults()
        + ", facts "
        + report.brokerFacts()
        + ", errors "
        + report.errors()
        + (report.complete() ? "" : ", incomplete: " + report.incompleteReason());
  }
}
