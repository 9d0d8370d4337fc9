package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.Worker;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One subscription's two consumers on two workers, and a broker ({@link RedeliveringDriver}) that
 * delivers some messages to both, repeats some to one and drops some. The workers are in-process
 * servers, so they share the stand-in broker; everything else travels as it does between hosts.
 */
class CrossWorkerDuplicatesTest {
  private static final String TOKEN = "cross-worker-token-0123456789";

  private static final String WORKLOAD =
      WorkloadYaml.oneTopic()
          .named("cross-worker-duplicates")
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

  @TempDir Path dir;

  @Test
  void aMessageReceivedOnTwoWorkersCountsOnceAsDistinctAndOnceAsDuplicated() throws Exception {
    try (WorkerServer first = start();
        WorkerServer second = start()) {
      DistributedWorkers workers =
          DistributedWorkers.connect(
              List.of(
                  LoopbackWorkerServers.client(first, Optional.of(TOKEN)),
                  LoopbackWorkerServers.client(second, Optional.of(TOKEN))),
              WorkerRoles.BOTH);
      RunReport report = run(workers);

      Counters counters = assertBalance(report);
      // Each worker saw only the repeats to its own consumer; the merge found the rest.
      JsonNode each = workers.breakdown().get("workers");
      long duplicatesSeenByWorkers = 0;
      for (JsonNode worker : each) {
        assertEquals(1, worker.get("consumers").asInt(), worker.toString());
        assertTrue(worker.get("received").asLong() > 0, worker.toString());
        duplicatesSeenByWorkers += worker.get("duplicates").asLong();
      }
      assertEquals(RedeliveringDriver.REPEATED.get(), duplicatesSeenByWorkers, each.toString());
      assertEquals(
          RedeliveringDriver.REDELIVERED.get(), counters.duplicated() - duplicatesSeenByWorkers);
    }
  }

  /** The same broker and one worker: it sees every duplicate itself, and nothing is added. */
  @Test
  void oneWorkerCountsTheSame() throws Exception {
    assertBalance(run(new LocalWorker(1)));
  }

  /**
   * Whatever the workers: every delivery received, the redelivered and repeated ones duplicated,
   * the dropped ones lost, and distinct (received less duplicated) is acknowledged less lost.
   */
  private static Counters assertBalance(RunReport report) {
    assertTrue(report.complete(), report.incompleteReason());
    Counters counters = report.counters();
    long redelivered = RedeliveringDriver.REDELIVERED.get();
    long repeated = RedeliveringDriver.REPEATED.get();
    long dropped = RedeliveringDriver.DROPPED.get();
    assertTrue(counters.sent() >= 1_000, "sent " + counters.sent());
    assertTrue(redelivered > 0 && repeated > 0 && dropped > 0, counters.toString());
    assertEquals(counters.sent(), counters.acknowledged());
    assertEquals(counters.sent() - dropped + redelivered + repeated, counters.received());
    assertEquals(redelivered + repeated, counters.duplicated(), counters.toString());
    assertEquals(dropped, counters.lost(), counters.toString());
    assertEquals(0, counters.inFlight(), counters.toString());
    assertEquals(
        counters.acknowledged() - counters.lost(), counters.received() - counters.duplicated());
    return counters;
  }

  private RunReport run(Worker worker) throws Exception {
    RedeliveringDriver.resetCounts();
    Path workload = Files.writeString(dir.resolve("workload.yaml"), WORKLOAD);
    Path driver =
        Files.writeString(
            dir.resolve("redelivering.yaml"),
            "name: Redelivering\ndriverClass: io.plumb.remote.RedeliveringDriver\n");
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload), driver, worker, OPTIONS, RunListener.SILENT);
    if (worker instanceof DistributedWorkers workers) {
      workers.onWorkerLost(run::abort);
    }
    return run.execute();
  }

  private static WorkerServer start() throws Exception {
    WorkerServer server = LoopbackWorkerServers.create(Optional.of(TOKEN), Duration.ofSeconds(30));
    server.start();
    return server;
  }
}
