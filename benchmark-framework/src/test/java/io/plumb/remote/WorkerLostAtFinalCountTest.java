package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.worker.Worker;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker lost at the run's final count, after the drain ended: without its sequence sets, what
 * its consumers received would look missing and count as lost. The run of {@link RedeliveringRuns}
 * (one subscription's consumers on two in-process workers, a broker that drops some messages), the
 * second worker's server closed just before the final count.
 */
class WorkerLostAtFinalCountTest {
  @TempDir Path dir;

  @Test
  void theRunIsIncompleteNamingTheWorkerAndItsDeliveriesAreNotCountedAsLost() throws Exception {
    try (WorkerServer first = RedeliveringRuns.startServer();
        WorkerServer second = RedeliveringRuns.startServer()) {
      DistributedWorkers workers = RedeliveringRuns.connect(first, second);
      String victim = RedeliveringRuns.client(second).name();
      RunReport report = RedeliveringRuns.run(dir, lostAtFinalCount(workers, second), workers);

      assertFalse(report.complete(), "a count without one worker's sets is not complete");
      String reason = report.incompleteReason();
      assertTrue(reason.contains("the sequence sets of worker " + victim), reason);
      assertTrue(reason.contains("loss is not judged"), reason);
      assertTrue(
          report.errors().stream().anyMatch(line -> line.contains(victim)),
          report.errors().toString());
      Counters counters = report.counters();
      long dropped = RedeliveringDriver.DROPPED.get();
      assertTrue(dropped > 0, counters.toString());
      // Before, every message the lost worker's consumer received counted as lost: 830 of 104.
      assertEquals(0, counters.lost(), dropped + " dropped; loss is not judged: " + counters);
      assertEquals(0, counters.inFlight(), counters.toString());
      // What was measured is still written.
      assertTrue(counters.sent() >= 1_000, counters.toString());
      assertTrue(counters.received() > 0, counters.toString());
    }
  }

  /**
   * The ensemble, with {@code victim}'s server closed as the final count begins: every other call
   * passes to {@code workers} as it is, including any that {@link Worker} gains later.
   */
  private static Worker lostAtFinalCount(DistributedWorkers workers, WorkerServer victim) {
    return (Worker)
        Proxy.newProxyInstance(
            Worker.class.getClassLoader(),
            new Class<?>[] {Worker.class},
            (proxy, method, args) -> {
              if (method.getName().equals("lastCount")) {
                victim.close();
              }
              try {
                return method.invoke(workers, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
