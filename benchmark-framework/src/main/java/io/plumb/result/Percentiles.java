package io.plumb.result;

import java.util.List;
import org.HdrHistogram.Histogram;

/** The percentiles every Plumb result reports, from the median to six nines. */
public final class Percentiles {
  public static final List<Double> REPORTED =
      List.of(50.0, 75.0, 95.0, 99.0, 99.9, 99.99, 99.999, 99.9999);

  private Percentiles() {}

  /** The label used in JSON and on the console: "p50", "p99.9", ... */
  public static String label(double percentile) {
    String number =
        percentile == Math.rint(percentile)
            ? Long.toString((long) percentile)
            : Double.toString(percentile);
    return "p" + number;
  }

  public static double millis(Histogram histogram, double percentile) {
    return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1e6;
  }

  public static double maxMillis(Histogram histogram) {
    return histogram.getTotalCount() == 0 ? 0 : histogram.getMaxValue() / 1e6;
  }

  public static double meanMillis(Histogram histogram) {
    return histogram.getTotalCount() == 0 ? 0 : histogram.getMean() / 1e6;
  }
}
