package io.plumb.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that stops a run's JVM shows in the run's resources as a host stall as long: the test has
 * the kernel stop this very JVM (SIGSTOP, then SIGCONT 300 ms later) in the middle of a run's
 * measured phase, as a hypervisor taking the VM's CPUs would.
 */
class HostStallsTest {
  private static final long STOPPED_MILLIS = 300;

  @TempDir Path dir;

  @Test
  void aStoppedJvmShowsAsAHostStallAsLong() throws Exception {
    Path workload =
        Files.writeString(
            dir.resolve("workload.yaml"),
            """
            topics: 1
            partitionsPerTopic: 1
            messageSize: 128
            subscriptionsPerTopic: 1
            consumerPerSubscription: 1
            producersPerTopic: 1
            producerRate: 1000
            testDurationSeconds: 3
            warmupDurationSeconds: 0
            """);
    Path driver =
        Files.writeString(
            dir.resolve("loopback.yaml"),
            "name: Loopback\ndriverClass: io.plumb.loopback.LoopbackDriver\n");
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            driver,
            new LocalWorker(),
            RunOptions.defaults().withPeriod(Duration.ofSeconds(1)),
            RunListener.SILENT);
    long pid = ProcessHandle.current().pid();
    // A process of its own sends both signals: nothing in this JVM runs while it is stopped.
    Process stopper =
        new ProcessBuilder(
                "sh", "-c", "sleep 1.5; kill -STOP " + pid + "; sleep 0.3; kill -CONT " + pid)
            .inheritIO()
            .start();
    RunReport report = run.execute();
    assertEquals(0, stopper.waitFor(), "the process that stopped this JVM failed");

    assertTrue(report.complete(), report.incompleteReason());
    ResourceSample whole = report.resources().whole();
    assertTrue(whole.hostStalls() >= 1, whole.toString());
    assertTrue(whole.hostLongestStallMillis() >= STOPPED_MILLIS * 0.8, whole.toString());
    assertTrue(whole.hostStallMillis() >= whole.hostLongestStallMillis(), whole.toString());
    assertTrue(
        report.resources().periods().stream().anyMatch(period -> period.hostStalls() >= 1),
        "no period holds the stall: " + report.resources().periods());
    assertTrue(
        report.resources().toJson().at("/summary/host/longestStallMillis").asDouble()
            >= STOPPED_MILLIS * 0.8,
        report.resources().toJson().toString());
    awaitNoStallThread();
  }

  /** The thread runs while a reader is open; the run closed its reader, and no other is open. */
  private static void awaitNoStallThread() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    List<Thread> left;
    while (!(left = stallThreads()).isEmpty() && System.nanoTime() < deadline) {
      left.get(0).join(100);
    }
    assertEquals(List.of(), stallThreads(), "the stall thread outlived its readers");
  }

  private static List<Thread> stallThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().equals("plumb-host-stalls") && thread.isAlive())
        .toList();
  }
}
