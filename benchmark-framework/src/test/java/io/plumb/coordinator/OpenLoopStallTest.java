package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.resources.ResourceSample;
import io.plumb.result.RunReport;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reason Plumb exists: a broker that stalls for 500 ms at 2,000 msg/s delays the 1,000 messages
 * scheduled during the stall, and an open-loop measurement must show every one of them waiting —
 * latencies spread evenly from 500 ms down to zero — not one slow message among thousands of fast
 * ones, which is what timing from the actual send (coordinated omission) shows.
 */
@Tag("host-timing")
class OpenLoopStallTest {
  private static final long MS = 1_000_000;

  @TempDir Path dir;

  @Test
  void everyMessageScheduledDuringAStallWaitsForIt() throws Exception {
    RunReport report =
        LoopbackRuns.run(
            dir,
            WorkloadYaml.oneTopic().rate(2000).seconds(3).text(),
            "stallAfterMessages: 2000\nstallMillis: 500\n");
    assertTrue(report.complete(), report.incompleteReason());
    assertEquals(0, report.counters().lost());
    assertEquals(report.counters().sent(), report.counters().received());

    Histogram publish = report.measured().publishLatency();
    Histogram service = report.measured().serviceTime();
    Histogram endToEnd = report.measured().endToEndLatency();
    // The stall lasts 500 ms: the worst message waited all of it.
    assertTrue(
        publish.getMaxValue() >= 490 * MS && publish.getMaxValue() < 2_000 * MS,
        "max " + publish.getMaxValue());
    // 1,000 messages fell due during the stall; those due in its first half waited at least 250 ms.
    assertBetween(
        400, 600, publish.getCountBetweenValues(250 * MS, Long.MAX_VALUE / 4), "publish >= 250 ms");
    assertBetween(
        700, 950, publish.getCountBetweenValues(100 * MS, Long.MAX_VALUE / 4), "publish >= 100 ms");
    assertBetween(
        400,
        600,
        endToEnd.getCountBetweenValues(250 * MS, Long.MAX_VALUE / 4),
        "end-to-end >= 250 ms");
    // Timed from the actual send, only the one message inside the stalled call looks slow, unless
    // the host itself stopped this JVM for 100 ms or more (a stall or a GC pause, which the run
    // records) while others were in flight: that slows their service time as well.
    long slowServices = service.getCountBetweenValues(100 * MS, Long.MAX_VALUE / 4);
    ResourceSample whole = report.resources().whole();
    double hostPauseMillis =
        whole == null ? 0 : Math.max(whole.hostLongestStallMillis(), whole.gcLongestPauseMillis());
    assertTrue(
        slowServices <= 1 || hostPauseMillis >= 100,
        "service >= 100 ms: "
            + slowServices
            + " messages (service max "
            + service.getMaxValue() / MS
            + " ms), with the host's longest stall or GC pause "
            + hostPauseMillis
            + " ms");
    assertTrue(
        service.getValueAtPercentile(99) < 5 * MS,
        "service p99 " + service.getValueAtPercentile(99));
    assertTrue(
        publish.getValueAtPercentile(99) > 100 * MS,
        "publish p99 " + publish.getValueAtPercentile(99));
  }

  private static void assertBetween(long low, long high, long actual, String what) {
    assertTrue(
        actual >= low && actual <= high,
        what + ": " + actual + " not in [" + low + ", " + high + "]");
  }
}
