package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.result.Counters;
import io.plumb.result.ResultJson;
import io.plumb.result.RunReport;
import io.plumb.worker.LoopbackDriverFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C (or any abort) mid-run keeps what was measured and says why the result is partial. */
class AbortedRunTest {
  @TempDir Path dir;

  @Test
  void anAbortedRunReportsWhatItMeasuredMarkedIncomplete() throws Exception {
    Path workload = dir.resolve("long.yaml");
    Files.writeString(
        workload,
        """
        topics: 1
        partitionsPerTopic: 2
        messageSize: 128
        subscriptionsPerTopic: 1
        consumerPerSubscription: 1
        producersPerTopic: 1
        producerRate: 5000
        testDurationMinutes: 10
        warmupDurationSeconds: 0
        """);
    Path driver = LoopbackDriverFile.write(dir);
    CountDownLatch twoPeriodsMeasured = new CountDownLatch(2);
    RunReport report =
        AbortedRuns.abortWhen(
            twoPeriodsMeasured,
            workload,
            driver,
            Duration.ofMillis(500),
            new EachPeriod((phase, stats, seconds) -> twoPeriodsMeasured.countDown()),
            30);

    assertFalse(report.complete());
    assertEquals("interrupted by the test", report.incompleteReason());
    assertTrue(report.samples().size() >= 2);
    assertTrue(report.counters().sent() > 1_000, "sent " + report.counters().sent());
    assertTrue(report.measured().publishLatency().getTotalCount() > 1_000);
    JsonNode json = ResultJson.render(report);
    assertFalse(json.get("complete").asBoolean());
    assertEquals("interrupted by the test", json.get("incompleteReason").asText());
  }

  /**
   * Counts and loss from one read: without a final period, sent, acknowledged and received came
   * from the last period before the abort while in-flight came from the sets read after it, so they
   * did not add up by however many messages moved in between.
   */
  @Test
  void anAbortedRunsCountersAddUpPerSubscription() throws Exception {
    Path workload = dir.resolve("two-subscriptions.yaml");
    Files.writeString(
        workload,
        """
        topics: 1
        partitionsPerTopic: 2
        messageSize: 128
        subscriptionsPerTopic: 2
        consumerPerSubscription: 1
        producersPerTopic: 1
        producerRate: 5000
        testDurationMinutes: 10
        warmupDurationSeconds: 0
        """);
    Path driver = dir.resolve("loopback.yaml");
    Files.writeString(
        driver, "name: Late\ndriverClass: " + LateDeliveryDriver.class.getName() + "\n");
    CountDownLatch periodMeasured = new CountDownLatch(1);
    Counters c =
        AbortedRuns.abortWhen(
                periodMeasured,
                workload,
                driver,
                Duration.ofMillis(500),
                new EachPeriod((phase, stats, seconds) -> periodMeasured.countDown()),
                30)
            .counters();

    assertTrue(c.sent() > 0, c.toString());
    assertTrue(c.acknowledged() + c.failed() <= c.sent(), c.toString());
    // Every acknowledged message is, for each of the two subscriptions, received once, lost or in
    // flight; deliveries beyond that are duplicates or of messages never acknowledged.
    assertEquals(
        2 * c.acknowledged(),
        c.received() - c.duplicated() - c.receivedUnacknowledged() + c.lost() + c.inFlight(),
        c.toString());
  }
}
