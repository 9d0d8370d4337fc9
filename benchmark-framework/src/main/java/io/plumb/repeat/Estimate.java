package io.plumb.repeat;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * One metric across repeated runs, each run's figure one sample: the median (the headline), the
 * range, and a 95% confidence interval.
 *
 * <p>The interval is Student's t on the logarithms of the values, turned back: an interval of the
 * geometric mean. Rates and latencies are positive and their run-to-run noise is multiplicative (a
 * busy host slows everything by a share, not by a fixed amount), so the log scale fits them better
 * than the raw values and its interval never goes below zero. Quantiles come from Commons Math's
 * {@link TDistribution}.
 *
 * @param ci95Low null with fewer than 2 runs, or when a value is not positive
 */
public record Estimate(
    int runs,
    double median,
    double min,
    double max,
    Double geometricMean,
    Double ci95Low,
    Double ci95High) {

  public static final String METHOD =
      "Student's t on log values (95% interval of the geometric mean across runs)";

  public static Estimate of(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double median = new Median().evaluate(values);
    double min = Arrays.stream(values).min().orElseThrow();
    double max = Arrays.stream(values).max().orElseThrow();
    if (min <= 0) {
      return new Estimate(values.length, median, min, max, null, null, null);
    }
    double[] logs = Arrays.stream(values).map(Math::log).toArray();
    double mean = StatUtils.mean(logs);
    if (values.length < 2) {
      return new Estimate(values.length, median, min, max, Math.exp(mean), null, null);
    }
    double standardError = Math.sqrt(StatUtils.variance(logs) / values.length);
    double t = new TDistribution(values.length - 1).inverseCumulativeProbability(0.975);
    return new Estimate(
        values.length,
        median,
        min,
        max,
        Math.exp(mean),
        Math.exp(mean - t * standardError),
        Math.exp(mean + t * standardError));
  }

  public boolean hasInterval() {
    return ci95Low != null;
  }
}
