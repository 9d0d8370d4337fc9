package io.plumb.remote;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.RunReport;
import io.plumb.worker.Worker;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs against {@link RedeliveringDriver}, whose stand-in broker delivers some messages to two
 * consumers, repeats some to one and drops some: one subscription's two consumers, on two
 * in-process worker servers that share the broker, or on one worker.
 */
final class RedeliveringRuns {
  private static final String TOKEN = "redelivering-runs-token-0123456789";

  private static final String WORKLOAD =
      WorkloadYaml.oneTopic()
          .named("redelivering")
          .messageSize(64)
          .subscriptions(1, 2)
          .rate(1000)
          .seconds(2)
          .text();

  /**
   * Dropped messages never arrive, so the drain ends when consumers have received nothing for its
   * idle time (10 s, within the 12 s timeout): that makes them lost rather than in flight.
   */
  private static final RunOptions OPTIONS =
      new RunOptions(
          Optional.of(Duration.ofSeconds(1)),
          false,
          Duration.ofSeconds(60),
          Duration.ofSeconds(12),
          Map.of());

  private RedeliveringRuns() {}

  static WorkerServer startServer() throws Exception {
    WorkerServer server = LoopbackWorkerServers.create(Optional.of(TOKEN), Duration.ofSeconds(30));
    server.start();
    return server;
  }

  static HttpWorker client(WorkerServer server) {
    return LoopbackWorkerServers.client(server, Optional.of(TOKEN));
  }

  /** Both servers as one ensemble, each worker producing and consuming. */
  static DistributedWorkers connect(WorkerServer first, WorkerServer second) {
    return DistributedWorkers.connect(List.of(client(first), client(second)), WorkerRoles.BOTH);
  }

  /**
   * The workload's run on {@code worker}, its counts reset first; a worker lost from {@code
   * ensemble} (null for none) aborts it.
   */
  static RunReport run(Path dir, Worker worker, DistributedWorkers ensemble) throws Exception {
    RedeliveringDriver.resetCounts();
    Path workload = Files.writeString(dir.resolve("workload.yaml"), WORKLOAD);
    Path driver =
        Files.writeString(
            dir.resolve("redelivering.yaml"),
            "name: Redelivering\ndriverClass: io.plumb.remote.RedeliveringDriver\n");
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload), driver, worker, OPTIONS, RunListener.SILENT);
    if (ensemble != null) {
      ensemble.onWorkerLost(run::abort);
    }
    return run.execute();
  }
}
