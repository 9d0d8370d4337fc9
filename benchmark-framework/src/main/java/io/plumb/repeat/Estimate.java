package io.plumb.repeat;

import java.util.Arrays;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * One metric across repeated runs, each run's figure one sample: the Hodges-Lehmann centre of the
 * logarithms (the headline, a geometric pseudo-median) with its exact Wilcoxon signed-rank interval
 * (see {@link HodgesLehmann}), turned back; beside them the median and range, for reading only.
 *
 * <p>Logarithms because rates and latencies are positive and their run-to-run noise is
 * multiplicative (a busy host slows everything by a share, not by a fixed amount); rank statistics
 * because one disturbed run should not drag the figure. The interval is floored by the metric's
 * recording resolution, so runs identical to the last digit do not claim an exact value.
 *
 * @param estimate null with a value not > 0
 * @param low null with fewer than 2 runs, or with a value not > 0
 * @param level the interval's exact coverage, e.g. 0.9375 for 5 runs; null without an interval
 */
public record Estimate(
    int runs,
    double median,
    double min,
    double max,
    Double estimate,
    Double low,
    Double high,
    Double level) {

  public static final String METHOD =
      "Hodges-Lehmann estimate of the log values (a geometric pseudo-median) with its exact Wilcoxon"
          + " signed-rank interval: 95% where the runs can reach it, else the closest level they can";

  public static Estimate of(double[] values, double relativeResolution) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double median = new Median().evaluate(values);
    double min = Arrays.stream(values).min().orElseThrow();
    double max = Arrays.stream(values).max().orElseThrow();
    if (min <= 0) {
      return new Estimate(values.length, median, min, max, null, null, null, null);
    }
    double[] logs = Arrays.stream(values).map(Math::log).toArray();
    HodgesLehmann centre = HodgesLehmann.of(logs).withFloor(Math.log1p(relativeResolution));
    if (values.length < 2) {
      return new Estimate(
          values.length, median, min, max, Math.exp(centre.estimate()), null, null, null);
    }
    return new Estimate(
        values.length,
        median,
        min,
        max,
        Math.exp(centre.estimate()),
        Math.exp(centre.low()),
        Math.exp(centre.high()),
        centre.level());
  }

  public boolean hasInterval() {
    return low != null;
  }
}
