package io.plumb.search;

import io.plumb.result.PeriodSample;
import java.util.List;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * How far a probe's latencies spread at one moment: p99 minus p50 within each reporting period, the
 * median over the periods, for publish latency (from the intended send time) and end-to-end
 * latency. The count of messages in flight at a steady rate moves by about the rate times this
 * spread as latency swings (a broker that syncs in batches acknowledges in waves), so a backlog
 * that grows by less than that over a probe may be no trend at all.
 *
 * <p>Within a period, not over the whole probe: above capacity latency climbs all through the
 * probe, and a spread over the whole probe would be that climb, the trend itself (a stand-in broker
 * at twice its capacity showed 2.2 s of spread over a 1 s probe). Within a period of a sixth of the
 * probe the climb adds a sixth at most, and the trend stands out; see {@link StepJudge}.
 *
 * @param publishNanos publish latency p99 - p50, median over the periods
 * @param endToEndNanos end-to-end latency p99 - p50, median over the periods (0 without consumers)
 */
public record LatencySpread(long publishNanos, long endToEndNanos) {
  public static final LatencySpread NONE = new LatencySpread(0, 0);

  /** From the measured periods of a probe. */
  public static LatencySpread of(List<PeriodSample> periods) {
    return new LatencySpread(
        medianSpread(periods, sample -> sample.stats().publishLatency()),
        medianSpread(periods, sample -> sample.stats().endToEndLatency()));
  }

  /** The larger of the two, in seconds: what a probe must outlast to tell a trend from a swing. */
  public double widestSeconds() {
    return Math.max(publishNanos, endToEndNanos) / 1e9;
  }

  private static long medianSpread(
      List<PeriodSample> periods, Function<PeriodSample, Histogram> family) {
    long[] spreads =
        periods.stream()
            .map(family)
            .filter(histogram -> histogram.getTotalCount() > 0)
            .mapToLong(h -> h.getValueAtPercentile(99) - h.getValueAtPercentile(50))
            .sorted()
            .toArray();
    if (spreads.length == 0) {
      return 0;
    }
    int middle = spreads.length / 2;
    return spreads.length % 2 == 1 ? spreads[middle] : (spreads[middle - 1] + spreads[middle]) / 2;
  }
}
