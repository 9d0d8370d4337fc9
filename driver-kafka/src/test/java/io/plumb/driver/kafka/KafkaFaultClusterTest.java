package io.plumb.driver.kafka;

import static io.plumb.testkit.ResultReading.summary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.fault.FaultOutcome;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.testkit.LossAccounting;
import io.plumb.testkit.OneFault;
import io.plumb.testkit.SmokeRun;
import io.plumb.testkit.WholeCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on the local 3-node cluster ({@code deploy/local/kafka.sh start --nodes 3}; runs only with
 * {@code -Pcluster}), through the whole engine at 2,000 msg/s of 1 KB on one partition for 40 s:
 * what the durable replicated file keeps and what the weak one loses.
 *
 * <p>The weak file's loss is provoked on purpose: the leader is cut from the other nodes (clients
 * still reach it) for longer than the controller waits before fencing it
 * (broker.session.timeout.ms, 9 s). With acks=1 it goes on acknowledging writes no follower
 * fetches; a follower is elected, and on healing the old leader truncates what it acknowledged
 * alone. Under the same cut the durable file's sends wait (acks=all with the followers still in the
 * in-sync set) and go to the new leader: that case is the proof table's (README) and no longer runs
 * here, where the durable file is checked under a leader kill and, in KafkaPowerLossClusterTest,
 * under a power loss of every node (the test command must stay under 45 minutes).
 */
class KafkaFaultClusterTest {
  private static final SmokeRun RUN = SmokeRun.oneStream(Duration.ofSeconds(40));

  /**
   * Long enough to recover in: the killed node's restart on the power-loss layer takes 10 to 35 s
   * on 2 cores and raises every latency while it runs, so recovery can come 20 s after the fault.
   */
  private static final SmokeRun LONG_RUN = SmokeRun.oneStream(Duration.ofSeconds(60));

  @TempDir Path scratch;

  /** A fault of the test before may have left a node fenced for a moment after it came back. */
  @RegisterExtension static final WholeCluster CLUSTER = LocalKafkaCluster.WHOLE_FOR_EACH_TEST;

  @Test
  void durableFileLosesNothingWhenTheLeaderIsKilled() throws Exception {
    Path plan = plan("kill-leader.yaml", "kill", 10);

    RunReport report =
        LONG_RUN.runWithFaults(Path.of("kafka-replicated.yaml"), plan, Map.of(), scratch);

    assertEquals(0, report.counters().lost(), summary(report));
    assertEveryFaultRecovered(report);
  }

  @Test
  void weakFileLosesAcknowledgedMessagesWhenTheLeaderIsPartitioned() throws Exception {
    Path plan = plan("partition-leader.yaml", "partition", 18);

    RunReport report =
        RUN.runWithFaults(Path.of("kafka-replicated-weak.yaml"), plan, Map.of(), scratch);

    assertTrue(report.complete(), summary(report));
    assertTrue(report.counters().lost() > 0, summary(report));
    FaultOutcome fault = report.faults().get(0);
    assertNull(fault.error(), summary(report));
    assertTrue(fault.acknowledgedLost() > 0, summary(report));
    // Judged by the final read: lost is what was acknowledged and neither received nor read.
    LossAccounting.assertLostIsWhatTheFinalReadMissed(report, summary(report));
    System.out.println("kafka-replicated-weak.yaml, leader partitioned: " + summary(report));
  }

  /**
   * One fault of {@code action} on the leader 8 s into the measured phase, undone {@code seconds}
   * later; consumers idle for 10 s end the drain (what is missing then stays missing).
   */
  private Path plan(String name, String action, int seconds) throws Exception {
    return new OneFault(action, "leader", 8, seconds, 10).writeTo(scratch.resolve(name));
  }

  /** Complete, every send accounted for, and each fault applied, undone and recovered from. */
  private static void assertEveryFaultRecovered(RunReport report) {
    String summary = summary(report);
    assertTrue(report.complete(), summary);
    Counters counters = report.counters();
    assertEquals(counters.sent(), counters.acknowledged() + counters.failed(), summary);
    assertEquals(1, report.faults().size(), summary);
    for (FaultOutcome fault : report.faults()) {
      assertNull(fault.error(), summary);
      assertNotNull(fault.unavailableSeconds(), summary);
      assertTrue(fault.availableAgain(), summary);
      assertNotNull(fault.recoverySeconds(), summary);
    }
    System.out.println(summary);
  }
}
