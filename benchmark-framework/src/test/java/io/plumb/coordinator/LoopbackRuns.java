package io.plumb.coordinator;

import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Runs short workloads on the loopback driver for the engine's tests. */
final class LoopbackRuns {
  private LoopbackRuns() {}

  static RunReport run(Path dir, String workloadYaml, String driverExtra) throws IOException {
    return run(dir, workloadYaml, driverExtra, RunOptions.defaults());
  }

  /** The same with {@code options} (its period is set to one second). */
  static RunReport run(Path dir, String workloadYaml, String driverExtra, RunOptions options)
      throws IOException {
    Path workload = dir.resolve("workload.yaml");
    Files.writeString(workload, workloadYaml);
    Path driver = dir.resolve("loopback.yaml");
    Files.writeString(
        driver, "name: Loopback\ndriverClass: io.plumb.loopback.LoopbackDriver\n" + driverExtra);
    return new BenchmarkRun(
            WorkloadReader.read(workload),
            driver,
            new LocalWorker(),
            options.withPeriod(Duration.ofSeconds(1)),
            RunListener.SILENT)
        .execute();
  }
}
