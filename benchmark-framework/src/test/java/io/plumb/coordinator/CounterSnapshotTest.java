package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every counter set is one consistent snapshot, also when a run under load is interrupted: never
 * more acknowledged than sent. The stand-in broker acknowledges on a thread of its own, as real
 * clients do, and keeps up with the load, so acknowledgements follow sends within microseconds:
 * exactly where a snapshot that reads the sends before the completions counts more completions than
 * sends.
 */
class CounterSnapshotTest {
  @TempDir Path dir;

  @Test
  void anInterruptedRunUnderLoadNeverCountsMoreCompletionsThanSends() throws Exception {
    Path workload =
        Files.writeString(
            dir.resolve("busy.yaml"),
            """
            topics: 1
            partitionsPerTopic: 2
            messageSize: 128
            subscriptionsPerTopic: 1
            consumerPerSubscription: 1
            producersPerTopic: 2
            producerRate: 100000
            testDurationMinutes: 10
            warmupDurationSeconds: 0
            """);
    Path driver =
        Files.writeString(
            dir.resolve("capacity.yaml"),
            "name: Capacity\ndriverClass: io.plumb.search.CapacityDriver\ncapacity: 1000000\n");
    List<String> contradictions = new ArrayList<>();
    CountDownLatch periods = new CountDownLatch(30);
    RunListener listener =
        new RunListener() {
          private long sent;
          private long completed;

          @Override
          public void period(
              Phase phase,
              double elapsed,
              double length,
              PeriodStats stats,
              double seconds,
              long backlog,
              long lag) {
            sent += stats.sent();
            completed += stats.acknowledged() + stats.failed();
            if (completed > sent) {
              contradictions.add("period " + periods.getCount() + ": " + completed + " > " + sent);
            }
            periods.countDown();
          }
        };
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            driver,
            new LocalWorker(),
            RunOptions.defaults().withPeriod(Duration.ofMillis(100)),
            listener);
    CompletableFuture<RunReport> result = CompletableFuture.supplyAsync(run::execute);
    assertTrue(periods.await(60, TimeUnit.SECONDS));
    run.abort("interrupted by the test");
    RunReport report = result.get(60, TimeUnit.SECONDS);

    assertEquals(List.of(), contradictions, "acknowledged and failed above sent");
    assertFalse(report.complete());
    Counters c = report.counters();
    assertTrue(c.sent() > 10_000, "sent " + c.sent());
    assertEquals(c.sent(), c.acknowledged() + c.failed() + c.unacknowledged(), c.toString());
    assertTrue(c.acknowledged() + c.failed() <= c.sent(), c.toString());
    // One subscription: every message is received at most once unless duplicated, and what was
    // acknowledged is received unless lost or still on its way.
    assertTrue(c.received() <= c.sent() + c.duplicated(), c.toString());
    assertTrue(c.received() + c.inFlight() + c.lost() >= c.acknowledged(), c.toString());
  }
}
