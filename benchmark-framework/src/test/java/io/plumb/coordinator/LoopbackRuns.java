package io.plumb.coordinator;

import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Runs short workloads on the loopback driver, in this JVM, for the engine's tests. */
public final class LoopbackRuns {
  private LoopbackRuns() {}

  static RunReport run(Path dir, String workloadYaml, String driverExtra) throws IOException {
    return run(dir, workloadYaml, driverExtra, RunOptions.defaults());
  }

  /** The same with {@code options} (its period is set to one second). */
  static RunReport run(Path dir, String workloadYaml, String driverExtra, RunOptions options)
      throws IOException {
    return prepare(dir, workloadYaml, driverExtra, options.withPeriod(Duration.ofSeconds(1)))
        .execute();
  }

  /**
   * A run, not started, of {@code workloadYaml} with {@code options} as they are; the workload and
   * the driver file (the loopback driver's, plus {@code driverExtra}) are written to {@code dir}.
   */
  public static BenchmarkRun prepare(
      Path dir, String workloadYaml, String driverExtra, RunOptions options) throws IOException {
    return prepare(dir, workloadYaml, driverExtra, options, RunListener.SILENT);
  }

  /** The same, telling {@code listener} what the run does. */
  static BenchmarkRun prepare(
      Path dir, String workloadYaml, String driverExtra, RunOptions options, RunListener listener)
      throws IOException {
    Path workload = dir.resolve("workload.yaml");
    Files.writeString(workload, workloadYaml);
    Path driver = LoopbackDriverFile.write(dir, driverExtra);
    return new BenchmarkRun(
        WorkloadReader.read(workload), driver, new LocalWorker(), options, listener);
  }

  /**
   * A run, not started, of one topic with one producer and one consumer at {@code rate} msg/s of
   * 128-byte messages for {@code seconds}, without warm-up, in periods of one second.
   */
  public static BenchmarkRun oneTopic(Path dir, int rate, int seconds) throws IOException {
    return prepare(
        dir,
        WorkloadYaml.oneTopic().messageSize(128).rate(rate).seconds(seconds).text(),
        "",
        RunOptions.defaults().withPeriod(Duration.ofSeconds(1)));
  }
}
