package io.plumb.cli;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunOptions;
import io.plumb.worker.Worker;
import io.plumb.workload.Workload;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * What every run of a search or a sweep shares: the console, the run options, a fresh worker per
 * run, and the place an interrupt reaches the run under way.
 */
record RunSetup(PrintStream out, RunOptions options, CurrentRun current, Supplier<Worker> workers) {

  /**
   * A run, not started, of {@code workload} at {@code rate} for the workload's own warm-up and
   * duration, on {@code worker}, reporting its progress on the console.
   */
  BenchmarkRun atRate(Workload workload, Path driver, double rate, Worker worker) {
    return new BenchmarkRun(
        workload.at(rate, workload.warmupDuration(), workload.testDuration()),
        driver,
        worker,
        options,
        ConsoleReporter.forWorker(out, workload.messageSize(), worker));
  }
}
