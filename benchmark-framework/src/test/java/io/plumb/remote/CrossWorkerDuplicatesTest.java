package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One subscription's two consumers on two workers, and a broker ({@link RedeliveringDriver}) that
 * delivers some messages to both, repeats some to one and drops some. The workers are in-process
 * servers, so they share the stand-in broker; everything else travels as it does between hosts.
 */
class CrossWorkerDuplicatesTest {
  @TempDir Path dir;

  @Test
  void aMessageReceivedOnTwoWorkersCountsOnceAsDistinctAndOnceAsDuplicated() throws Exception {
    try (WorkerServer first = RedeliveringRuns.startServer();
        WorkerServer second = RedeliveringRuns.startServer()) {
      DistributedWorkers workers = RedeliveringRuns.connect(first, second);
      RunReport report = RedeliveringRuns.run(dir, workers, workers);

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
    assertBalance(RedeliveringRuns.run(dir, new LocalWorker(1), null));
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
}
