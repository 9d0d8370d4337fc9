package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Runs a workload in the background and aborts it, as Ctrl-C would, once enough has happened. */
final class AbortedRuns {
  private AbortedRuns() {}

  /**
   * Runs {@code workload} with {@code driver} on an in-process worker in periods of {@code period},
   * {@code listener} told of each, and aborts it once {@code ready} has counted down; waits up to
   * {@code timeoutSeconds} for each.
   */
  static RunReport abortWhen(
      CountDownLatch ready,
      Path workload,
      Path driver,
      Duration period,
      RunListener listener,
      int timeoutSeconds)
      throws Exception {
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            driver,
            new LocalWorker(),
            RunOptions.defaults().withPeriod(period),
            listener);
    CompletableFuture<RunReport> result = CompletableFuture.supplyAsync(run::execute);
    assertTrue(ready.await(timeoutSeconds, TimeUnit.SECONDS));
    run.abort("interrupted by the test");
    return result.get(timeoutSeconds, TimeUnit.SECONDS);
  }
}
