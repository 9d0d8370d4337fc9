package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.resources.ResourceReport;
import io.plumb.resources.ResourceSample;
import io.plumb.result.RunReport;
import io.plumb.workload.WorkloadReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G1's Remark and Cleanup are stop-the-world pauses that JDK 17's collector MXBeans never report: a
 * worker JVM on G1 that runs a concurrent cycle during the measured phase must show them in the GC
 * figures the coordinator collects from it.
 */
class GcPauseSourceTest {
  @TempDir Path dir;

  @Test
  void aRemarkPauseDuringTheRunIsInTheWorkersReportedPauses() throws Exception {
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
            producerRate: 2000
            testDurationSeconds: 8
            warmupDurationSeconds: 0
            """);
    Path driver =
        Files.writeString(
            dir.resolve("cycle.yaml"),
            "name: Cycle\ndriverClass: " + ConcurrentCycleDriver.class.getName() + "\n");
    try (WorkerProcess process =
        WorkerProcess.startWorker(
            List.of("-XX:+UseG1GC", "-XX:+ExplicitGCInvokesConcurrent"), Map.of())) {
      HttpWorker client = process.client();
      // JFR starts beside the worker, not before it answers: the run begins once it records.
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (!jfrRecording(client)) {
        assertTrue(System.nanoTime() < deadline, "JFR did not start within 120 s");
        Thread.sleep(100);
      }
      DistributedWorkers workers = DistributedWorkers.connect(List.of(client), WorkerRoles.BOTH);
      RunReport report =
          new BenchmarkRun(
                  WorkloadReader.read(workload),
                  driver,
                  workers,
                  RunOptions.defaults().withPeriod(Duration.ofSeconds(1)),
                  RunListener.SILENT)
              .execute();

      assertTrue(report.complete(), report.incompleteReason());
      ResourceReport worker = report.resources().remoteWorkers().get(client.name());
      assertTrue(worker != null && worker.sampled(), String.valueOf(worker));
      ResourceSample whole = worker.whole();
      assertTrue(whole.gcSource().startsWith("JFR"), whole.gcSource());
      assertTrue(
          whole.gcPausesByKind().getOrDefault("Pause Remark", 0L) >= 1,
          "pauses by kind " + whole.gcPausesByKind());
      assertTrue(
          whole.gcCount() >= whole.gcPausesByKind().values().stream().mapToLong(n -> n).sum(),
          whole.toString());
      assertTrue(whole.gcMillis() > 0, whole.toString());
      assertTrue(whole.gcLongestPauseMillis() > 0, whole.toString());
    }
  }

  /** False while JFR is starting, or while a busy host keeps the worker from answering in time. */
  private static boolean jfrRecording(HttpWorker client) {
    try {
      return !client.resources().gcSource().contains("still starting");
    } catch (io.plumb.worker.WorkerException e) {
      return false;
    }
  }
}
