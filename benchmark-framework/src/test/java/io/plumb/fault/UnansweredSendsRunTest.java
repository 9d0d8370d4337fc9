package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.Phase;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault run on the loopback driver and its "cluster" of {@link TestNode} processes in which, from
 * about 1.5 s into the measured phase, every send to partition 1 goes unanswered (a client queueing
 * sends for a leader it cannot reach) until its producer closes and fails it; partition 0 keeps
 * acknowledging, so the producer never goes quiet. No final read runs: the loopback keeps no
 * messages, and the run is stopped as its drain starts (as a user stops one that waits out its
 * drain for sends that will never complete).
 */
@Tag("host-timing")
class UnansweredSendsRunTest {
  @TempDir Path dir;

  private TestCluster nodes;

  @AfterEach
  void cleanUp() {
    System.clearProperty("plumb.home");
    if (nodes != null) {
      nodes.close();
    }
  }

  @Test
  void aPartitionWhoseSendsAreNeverAnsweredIsUnavailableToTheEndAndNotAvailableAgain()
      throws Exception {
    Path home = dir.resolve("home");
    nodes = new TestCluster(home, "loopback", 3, 29_100);
    System.setProperty("plumb.home", home.toString());
    Path workload =
        WorkloadYaml.oneTopic()
            .partitions(2)
            .messageSize(64)
            .rate(1000)
            .seconds(4)
            .warmup(1)
            .writeTo(dir.resolve("w.yaml"));
    Path driver = LoopbackDriverFile.write(dir, "holdAfterMessages: 2500\nheldPartition: 1\n");
    FaultPlan plan = TestKills.plan(TestKills.node(1, 3, "2", 1, 1));
    AtomicReference<BenchmarkRun> running = new AtomicReference<>();
    RunListener stopAtDrain =
        new RunListener() {
          @Override
          public void phaseStarted(Phase phase) {
            if (phase == Phase.DRAIN) {
              running.get().abort("stopped by the test as the drain started");
            }
          }
        };
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            driver,
            new LocalWorker(),
            RunOptions.defaults().withFaultPlan(plan).withPeriod(Duration.ofSeconds(1)),
            stopAtDrain);
    running.set(run);

    RunReport report = run.execute();

    assertFalse(report.finalRead().ran(), report.finalRead().whyNot());
    FaultOutcome fault = report.faults().get(0);
    Unavailability unavailability = fault.unavailability();
    assertTrue(unavailability.worstPartition().endsWith("/1"), unavailability.toString());
    assertEquals(1, unavailability.partitionsAffected(), unavailability.toString());
    // 1,000 messages of warm-up and 1,500 measured before the hold; the load ends at 4 s, and the
    // clients close (failing the held sends) just after it.
    double seconds = unavailability.worstPartitionSeconds();
    assertTrue(seconds > 2.0 && seconds < 4.0, unavailability.toString());
    assertFalse(unavailability.partitionsAvailableAgain(), unavailability.toString());
    assertFalse(fault.availableAgain(), fault.toString());
    assertEquals(seconds, fault.unavailableSeconds());
    assertTrue(fault.publishFailures() > 1_000, "the held sends, failed on close: " + fault);
  }
}
