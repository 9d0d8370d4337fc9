package io.plumb.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.LoopbackRuns;
import io.plumb.result.RunReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that stops a run's JVM shows in the run's resources as a host stall as long: the test has
 * the kernel stop this very JVM (SIGSTOP, then SIGCONT 300 ms later) in the middle of a run's
 * measured phase, as a hypervisor taking the VM's CPUs would. The measured phase is known to have
 * begun when the run's producer thread is watched for its waits for a core ({@link CoreWaits}).
 */
@Tag("host-timing")
class HostStallsTest {
  private static final long STOPPED_MILLIS = 300;

  @TempDir Path dir;

  @Test
  void aStoppedJvmShowsAsAHostStallAsLong() throws Exception {
    int readersBefore = HostStalls.openReaders();
    BenchmarkRun run = LoopbackRuns.oneTopic(dir, 1000, 3);
    long pid = ProcessHandle.current().pid();
    int watchedBefore = CoreWaits.watched();
    // Once the run's producer is sending (the measured phase: the run has no warm-up) and 0.5 s
    // on, a process of its own sends both signals: nothing in this JVM runs while it is stopped.
    CompletableFuture<Integer> stopper =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (CoreWaits.watched() <= watchedBefore && System.nanoTime() < deadline) {
                  Thread.sleep(10);
                }
                return new ProcessBuilder(
                        "sh",
                        "-c",
                        "sleep 0.5; kill -STOP " + pid + "; sleep 0.3; kill -CONT " + pid)
                    .inheritIO()
                    .start()
                    .waitFor();
              } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    RunReport report = run.execute();
    assertEquals(0, stopper.get(), "the process that stopped this JVM failed");

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
