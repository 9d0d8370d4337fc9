package io.plumb.cli;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.result.RunReport;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What an interrupt stops: the run, search or probe under way, or nothing between them. The
 * commands make each one current for exactly as long as it runs, so an interrupt never aborts one
 * that has finished or has not started.
 */
final class CurrentRun {
  private final AtomicReference<Consumer<String>> abort = new AtomicReference<>();

  /** Executes {@code run} as the current one. */
  RunReport execute(BenchmarkRun run) {
    return during(run::abort, run::execute);
  }

  /** Does {@code work} as the current one, which {@code abort} stops early with a reason. */
  <T> T during(Consumer<String> abort, Supplier<T> work) {
    this.abort.set(abort);
    try {
      return work.get();
    } finally {
      this.abort.set(null);
    }
  }

  /** Stops what is under way, if anything, for {@code reason}. */
  void abort(String reason) {
    Consumer<String> current = abort.get();
    if (current != null) {
      current.accept(reason);
    }
  }
}
