package io.plumb.repeat;

import java.util.Arrays;
import java.util.Optional;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;

/**
 * B against A for one metric: the ratio of B's to A's geometric mean across runs, with a 95%
 * confidence interval from Welch's t on the logarithms (unequal variances, Welch-Satterthwaite
 * degrees of freedom; quantile from Commons Math's {@link TDistribution}). An interval that holds a
 * ratio of 1 means the runs cannot tell A and B apart.
 *
 * @param ratio B / A
 */
public record Difference(int runsA, int runsB, double ratio, double ci95Low, double ci95High) {

  /** Fewer runs a side than this and no verdict is given: two runs say nothing of the spread. */
  public static final int MIN_RUNS_A_SIDE = 3;

  public static final String METHOD =
      "Welch's t on log values: 95% interval of the ratio of geometric means B/A";

  /**
   * Empty-handed when a side has fewer than {@link #MIN_RUNS_A_SIDE} runs or a value is not > 0.
   */
  public static Optional<Difference> of(double[] a, double[] b) {
    if (a.length < MIN_RUNS_A_SIDE || b.length < MIN_RUNS_A_SIDE) {
      return Optional.empty();
    }
    if (Arrays.stream(a).anyMatch(v -> v <= 0) || Arrays.stream(b).anyMatch(v -> v <= 0)) {
      return Optional.empty();
    }
    double[] logA = Arrays.stream(a).map(Math::log).toArray();
    double[] logB = Arrays.stream(b).map(Math::log).toArray();
    double shift = StatUtils.mean(logB) - StatUtils.mean(logA);
    double varianceA = StatUtils.variance(logA) / a.length;
    double varianceB = StatUtils.variance(logB) / b.length;
    double standardError = Math.sqrt(varianceA + varianceB);
    if (standardError == 0) {
      // Every run of each side gave the same figure: the ratio is exact.
      return Optional.of(
          new Difference(a.length, b.length, Math.exp(shift), Math.exp(shift), Math.exp(shift)));
    }
    double degrees =
        Math.pow(varianceA + varianceB, 2)
            / (varianceA * varianceA / (a.length - 1) + varianceB * varianceB / (b.length - 1));
    double t = new TDistribution(degrees).inverseCumulativeProbability(0.975);
    return Optional.of(
        new Difference(
            a.length,
            b.length,
            Math.exp(shift),
            Math.exp(shift - t * standardError),
            Math.exp(shift + t * standardError)));
  }

  public boolean distinguishable() {
    return ci95Low > 1 || ci95High < 1;
  }

  /**
   * In plain words, e.g. "B faster by 12.0% (95% CI 8.1% to 16.2%)", "B lower by 30.5% (95% CI
   * 21.0% to 38.9%)", or "not distinguishable (B/A -2.1%, 95% CI -6.0% to +2.0%)".
   */
  public String verdict(Metric metric) {
    if (!distinguishable()) {
      return String.format(
          "not distinguishable (B vs A %s, 95%% CI %s to %s)",
          signed(ratio), signed(ci95Low), signed(ci95High));
    }
    boolean up = ratio > 1;
    String word =
        metric.unit().equals("msg/s") ? (up ? "faster" : "slower") : (up ? "higher" : "lower");
    // The interval's ends in the verdict's own direction, nearer end first.
    double near = up ? ci95Low : ci95High;
    double far = up ? ci95High : ci95Low;
    String worse = metric.higherIsBetter() == up ? "" : " (worse)";
    if (up && near >= 2) {
      // Percentages in the thousands read badly: a ratio says it plainly.
      return String.format(
          "B %s: %.1f times A (95%% CI %.1f to %.1f times)%s", word, ratio, near, far, worse);
    }
    return String.format(
        "B %s by %s (95%% CI %s to %s)%s",
        word, percent(ratio), percent(near), percent(far), worse);
  }

  private static String percent(double ratio) {
    return String.format("%.1f%%", Math.abs(ratio - 1) * 100);
  }

  private static String signed(double ratio) {
    return String.format("%+.1f%%", (ratio - 1) * 100);
  }
}
