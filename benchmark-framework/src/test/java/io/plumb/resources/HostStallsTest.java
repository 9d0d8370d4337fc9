package io.plumb.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.LoopbackRuns;
import io.plumb.result.RunReport;
import java.nio.file.Path;
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
    int readersBefore = HostStalls.openReaders();
    BenchmarkRun run = LoopbackRuns.oneTopic(dir, 1000, 3);
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
    // The thread runs while a reader is open: the run's is closed once it has reported.
    assertEquals(readersBefore, HostStalls.openReaders(), "the run left its reader open");
  }
}
