package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.Counters;
import io.plumb.result.PeriodSample;
import io.plumb.result.RunReport;

/** What every backlog run's report must show, on one worker or several. */
public final class BacklogTimeline {
  private BacklogTimeline() {}

  /**
   * The timeline shows the backlog rise to at least {@code peakAtLeast} while the consumers were
   * paused and fall below OMB's drain floor after, and the paused consumers lost nothing.
   */
  public static void assertRoseAndDrained(RunReport report, long peakAtLeast) {
    long peak = report.samples().stream().mapToLong(PeriodSample::backlog).max().orElseThrow();
    assertTrue(peak >= peakAtLeast, "peak backlog " + peak);
    assertTrue(report.samples().get(report.samples().size() - 1).backlog() < 1_000);
    Counters counters = report.counters();
    assertEquals(counters.sent(), counters.received(), "paused consumers lose nothing");
    assertEquals(0, counters.lost());
    assertEquals(0, counters.duplicated());
  }
}
