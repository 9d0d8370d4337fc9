package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every counter set is one consistent snapshot, also when a run under load is interrupted: never
 * more acknowledged than sent. The stand-in broker acknowledges on a thread of its own, as real
 * clients do, and keeps up with the load, so acknowledgements follow sends within microseconds:
 * exactly where a snapshot that reads the sends before the completions counts more completions than
 * sends.
 */
@Tag("host-timing")
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
    // Holders the listener's lambda can add to; only the run's thread touches them.
    AtomicLong sent = new AtomicLong();
    AtomicLong completed = new AtomicLong();
    RunListener listener =
        new EachPeriod(
            (phase, stats, seconds) -> {
              long sentSoFar = sent.addAndGet(stats.sent());
              long completedSoFar = completed.addAndGet(stats.acknowledged() + stats.failed());
              if (completedSoFar > sentSoFar) {
                contradictions.add(
                    "period " + periods.getCount() + ": " + completedSoFar + " > " + sentSoFar);
              }
              periods.countDown();
            });
    RunReport report =
        AbortedRuns.abortWhen(periods, workload, driver, Duration.ofMillis(100), listener, 60);

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
