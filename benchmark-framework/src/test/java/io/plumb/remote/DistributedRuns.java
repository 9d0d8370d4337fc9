package io.plumb.remote;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.workload.WorkloadReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** A run, not started, across remote workers, aborted as bin/benchmark would if one is lost. */
final class DistributedRuns {
  private DistributedRuns() {}

  static BenchmarkRun prepare(
      Path workload, Path driver, DistributedWorkers workers, Duration period) throws IOException {
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            driver,
            workers,
            RunOptions.defaults().withPeriod(period),
            RunListener.SILENT);
    workers.onWorkerLost(run::abort);
    return run;
  }
}
