package io.plumb.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.result.PeriodSample;
import io.plumb.stats.Histograms;
import io.plumb.stats.PeriodCounts;
import io.plumb.stats.PeriodStats;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The spread within periods, not the climb across them. */
class LatencySpreadTest {
  private static final long MS = 1_000_000;

  @Test
  void aSteadyClimbAcrossPeriodsIsNotSpread() {
    // Latency climbs by 1 s a period (a broker above capacity), each period's 100 messages within
    // 10 ms of each other: over the whole probe p99 - p50 would be seconds.
    List<PeriodSample> periods = new ArrayList<>();
    for (int period = 0; period < 6; period++) {
      periods.add(sample(1_000 * period, 10));
    }
    LatencySpread spread = LatencySpread.of(periods);
    // Evenly spread over 10 ms, p99 - p50 is about half of it.
    assertEquals(5, spread.publishNanos() / MS, 1);
    assertEquals(5, spread.endToEndNanos() / MS, 1);
  }

  @Test
  void theMedianPeriodSpeaksNotOneStall() {
    // Five periods swing by 300 ms (syncs in batches), one stalled period by 5 s.
    List<PeriodSample> periods = new ArrayList<>();
    for (int period = 0; period < 5; period++) {
      periods.add(sample(200, 300));
    }
    periods.add(sample(200, 5_000));
    assertEquals(150, LatencySpread.of(periods).publishNanos() / MS, 3);
  }

  @Test
  void periodsWithoutLatenciesGiveNoSpread() {
    assertEquals(LatencySpread.NONE, LatencySpread.of(List.of()));
  }

  /** A period whose 100 latencies run evenly from {@code lowMillis} to lowMillis + range. */
  private static PeriodSample sample(long lowMillis, long rangeMillis) {
    Histogram latency = Histograms.forMerging();
    for (int i = 0; i < 100; i++) {
      latency.recordValue((lowMillis + rangeMillis * i / 99) * MS);
    }
    PeriodStats stats = new PeriodCounts(100, 100, 0, 100, 0).withLatencies(latency, latency);
    return new PeriodSample(stats, 0.5, 0);
  }
}
