package io.plumb.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.LoopbackRuns;
import io.plumb.result.RunReport;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G1's Remark and Cleanup are stop-the-world pauses that JDK 17's collector MXBeans never report: a
 * run during which G1 runs concurrent cycles must show their Remark pauses among its GC figures.
 *
 * <p>G1 runs the cycles of its own accord, in this JVM: its periodic collection is a concurrent
 * cycle, and its interval ({@code G1PeriodicGCInterval}) is a flag a running JVM may set. So the
 * test needs no JVM of its own (as {@code -XX:+ExplicitGCInvokesConcurrent} would) and no test-only
 * API.
 */
@Tag("host-timing")
class GcPauseSourceTest {
  private static final String PERIODIC = "G1PeriodicGCInterval";

  @TempDir Path dir;

  @Test
  void aRemarkPauseDuringTheRunIsInTheReportedPauses() throws Exception {
    List<String> collectors =
        ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName)
            .toList();
    assertTrue(collectors.contains("G1 Young Generation"), "this JVM runs " + collectors);
    // Created first: its resource reader starts this JVM's JFR (unless an earlier test did) while
    // the rest of it is set up.
    BenchmarkRun run = LoopbackRuns.oneTopic(dir, 1000, 3);
    awaitRecording();
    HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    String interval = vm.getVMOption(PERIODIC).getValue();
    RunReport report;
    try {
      // For the run, a concurrent cycle whenever 100 ms pass without a collection. G1 looks once
      // a second while the interval is 0 and every interval after that, so the cycles start within
      // the first of the measured phase's three seconds, and JFR hands each over within a second.
      vm.setVMOption(PERIODIC, "100");
      report = run.execute();
    } finally {
      vm.setVMOption(PERIODIC, interval);
    }

    assertTrue(report.complete(), report.incompleteReason());
    ResourceReport resources = report.resources();
    assertTrue(resources.sampled(), resources.scope());
    ResourceSample whole = resources.whole();
    assertTrue(whole.gcSource().startsWith("JFR"), whole.gcSource());
    assertFalse(whole.gcSource().contains("still starting"), whole.gcSource());
    assertTrue(
        whole.gcPausesByKind().getOrDefault("Pause Remark", 0L) >= 1,
        "pauses by kind " + whole.gcPausesByKind());
    assertTrue(
        whole.gcCount() == whole.gcPausesByKind().values().stream().mapToLong(n -> n).sum(),
        whole.toString());
    assertTrue(whole.gcMillis() > 0, whole.toString());
    assertTrue(whole.gcLongestPauseMillis() > 0, whole.toString());
  }

  @Test
  void theRecordingKeepsNoJvmAlive() throws Exception {
    awaitRecording();
    // A JVM ends once its last thread that is no daemon does: were the recording's one of them,
    // a JVM whose main returns without calling exit would wait for it for ever.
    List<String> keepingAlive =
        Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> thread.getName().contains("JFR") || thread.getName().contains("jfr"))
            .filter(thread -> !thread.isDaemon())
            .map(Thread::getName)
            .toList();
    assertEquals(List.of(), keepingAlive);
  }

  /**
   * JFR starts on a thread of its own with this JVM's first reader, and takes seconds on a busy
   * host: the run starts once it records, or the test fails saying why it does not.
   */
  private static void awaitRecording() throws InterruptedException {
    try (PauseReader pauses = JvmPauses.reader()) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (pauses.description().contains("still starting")) {
        assertTrue(System.nanoTime() < deadline, "JFR did not start within 60 s");
        Thread.sleep(50);
      }
      assertTrue(pauses.description().startsWith("JFR"), pauses.description());
    }
  }
}
