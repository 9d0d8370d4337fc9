package io.plumb.report;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A latency distribution as points on a "nines" axis: x = 1 / (1 - percentile/100), so p0 sits at
 * 1, p90 at 10, p99 at 100 and p99.9999 at 10^6, each nine one decade further right. The maximum,
 * whose x would be infinite, is drawn one decade past six nines, at {@link #MAX_X}.
 */
public final class NinesCurve {
  /** Six nines: the last percentile drawn before the maximum. */
  public static final double LAST_X = 1e6;

  public static final double MAX_X = 1e7;

  /** Points per decade of the axis: enough for a smooth curve, few enough for a small file. */
  private static final int POINTS_PER_DECADE = 12;

  /** One point: where it sits on the axis, which percentile that is, and the latency there. */
  public record Point(double x, double percentile, double millis) {}

  private NinesCurve() {}

  /** The curve of a histogram in nanoseconds; empty when it recorded nothing. */
  public static List<Point> of(Histogram histogram) {
    List<Point> points = new ArrayList<>();
    if (histogram.getTotalCount() == 0) {
      return points;
    }
    int steps = (int) Math.round(Math.log10(LAST_X) * POINTS_PER_DECADE);
    for (int step = 0; step <= steps; step++) {
      double x = Math.pow(10, (double) step / POINTS_PER_DECADE);
      double percentile = 100 * (1 - 1 / x);
      points.add(new Point(x, percentile, histogram.getValueAtPercentile(percentile) / 1e6));
    }
    points.add(new Point(MAX_X, 100, histogram.getMaxValue() / 1e6));
    return points;
  }
}
