package io.plumb.driver.nats;

import static io.plumb.testkit.ResultReading.summary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.fault.FaultOutcome;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
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
 * Faults on the local 3-node cluster ({@code deploy/local/nats.sh start --nodes 3}; runs only with
 * {@code -Pcluster}), through the whole engine at 2,000 msg/s of 1 KB on one stream for 40 s: the
 * durable replicated file (file storage, 3 replicas) loses no acknowledged message when the server
 * leading the stream is killed or frozen, every send completes (acknowledged, or failed while the
 * stream had no leader), publishing resumes on the new leader and consumers catch up.
 */
class NatsFaultClusterTest {
  private static final SmokeRun RUN = SmokeRun.oneStream(Duration.ofSeconds(40));
  private static final Path DURABLE = Path.of("nats-jetstream-replicated.yaml");

  @TempDir Path scratch;

  /** A fault of the test before may have left the cluster electing a meta leader. */
  @RegisterExtension static final WholeCluster CLUSTER = LocalNatsCluster.WHOLE_FOR_EACH_TEST;

  /**
   * Publishing resumes on a new stream leader and nothing acknowledged is lost. Whether the
   * end-to-end p99 is back within 10% of its pre-fault level in the 20 s after the killed server
   * restarts and catches up is the broker's and the host's (in one CI run on 2 cores it was not:
   * pre-fault p99 13 ms, 0 lost, publishing back after 5.2 s), so it is printed, not asserted, as
   * for the freeze below.
   */
  @Test
  void durableFileLosesNothingWhenTheLeaderIsKilled() throws Exception {
    assertDurableFileLosesNothing("kill", 10);
  }

  /**
   * Freezing a server of NATS 2.9 disturbs its raft groups twice: once when it stops answering (a
   * new stream leader in seconds) and again when it thaws, with its election timers already run
   * out, when the cluster may go without a stream (and meta) leader for 10 s or more. So publishing
   * resumes, and nothing acknowledged is lost, but whether throughput and latency are back to their
   * pre-fault level within this short run is up to the broker, and not asserted.
   */
  @Test
  void durableFileLosesNothingWhenTheLeaderIsFrozen() throws Exception {
    assertDurableFileLosesNothing("freeze", 8);
  }

  /** The durable file under {@link #plan}: complete, nothing lost, every publish accounted for. */
  private void assertDurableFileLosesNothing(String action, int seconds) throws Exception {
    RunReport report = RUN.runWithFaults(DURABLE, plan(action, seconds), Map.of(), scratch);

    String summary = summary(report);
    assertTrue(report.complete(), summary);
    assertEquals(0, report.counters().lost(), summary);
    assertEveryPublishAccountedFor(report);
    System.out.println(summary);
  }

  /**
   * One fault of {@code action} on the stream leader 8 s into the measured phase, undone {@code
   * seconds} later. Consumers idle for 15 s end the drain: longer than the durable's ack wait (10
   * s), so a message delivered during the fault but never acknowledged comes again before then.
   */
  private Path plan(String action, int seconds) throws Exception {
    return new OneFault(action, "leader", 8, seconds, 15)
        .writeTo(scratch.resolve(action + "-leader.yaml"));
  }

  /**
   * Every send completed (acknowledged or failed), the one fault was applied to the stream leader
   * and undone, publishing stalled or failed and then resumed, and nothing acknowledged was lost.
   */
  private static void assertEveryPublishAccountedFor(RunReport report) {
    String summary = summary(report);
    Counters counters = report.counters();
    assertEquals(counters.sent(), counters.acknowledged() + counters.failed(), summary);
    assertEquals(0, counters.inFlight(), summary);
    assertEquals(1, report.faults().size(), summary);
    for (FaultOutcome fault : report.faults()) {
      assertNull(fault.error(), summary);
      assertEquals("stream leader", fault.leaderMeaning(), summary);
      assertNotNull(fault.undoneSeconds(), summary);
      assertNotNull(fault.unavailableSeconds(), summary);
      assertTrue(fault.availableAgain(), summary);
      assertEquals(0, fault.acknowledgedLost(), summary);
    }
  }
}
