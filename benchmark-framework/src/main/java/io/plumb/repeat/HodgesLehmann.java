package io.plumb.repeat;

import java.util.Arrays;

/**
 * The Hodges-Lehmann estimate of the centre of n values (the median of their n(n+1)/2 Walsh
 * averages (x_i + x_j) / 2, i <= j) with its exact Wilcoxon signed-rank confidence interval: the
 * k-th smallest and k-th largest Walsh average, k from {@link SignedRank}. Distribution-free: it
 * assumes only that the values are symmetric around their centre, and one wild value moves it
 * little. The estimate and its interval are one statistic: the interval is the set of centres the
 * signed-rank test would not reject.
 *
 * @param level the interval's exact coverage, e.g. 0.9375 for 5 values asked for 0.95
 */
public record HodgesLehmann(int n, double estimate, double low, double high, double level) {

  /** The confidence level asked for; the achievable one nearest it is used (see {@link #level}). */
  public static final double LEVEL = 0.95;

  public static HodgesLehmann of(double[] values) {
    double[] walsh = walshAverages(values);
    SignedRank distribution = new SignedRank(values.length);
    int k = distribution.boundRank(LEVEL);
    return new HodgesLehmann(
        values.length,
        median(walsh),
        walsh[k - 1],
        walsh[walsh.length - k],
        distribution.coverage(k));
  }

  /**
   * The exact one-sided p-value that the centre lies above {@code bound}: the chance, were the
   * centre at the bound, of as many Walsh averages above it as observed. It is below (1 - level) /
   * 2 exactly when {@link #low} exceeds the bound, so test and interval agree. Ties with the bound
   * count half.
   */
  public static double pAbove(double[] values, double bound) {
    double[] walsh = walshAverages(values);
    double above = 0;
    for (double w : walsh) {
      above += w > bound ? 1 : w == bound ? 0.5 : 0;
    }
    // P(T+ >= above) = P(T+ <= M - above), by the symmetry of T+'s distribution.
    SignedRank distribution = new SignedRank(values.length);
    return distribution.atMost(walsh.length - above);
  }

  /** As {@link #pAbove}, for a centre below {@code bound}. */
  public static double pBelow(double[] values, double bound) {
    double[] mirrored = Arrays.stream(values).map(v -> -v).toArray();
    return pAbove(mirrored, -bound);
  }

  /** This estimate with its interval widened to at least {@code floor} either side of it. */
  public HodgesLehmann withFloor(double floor) {
    return new HodgesLehmann(
        n, estimate, Math.min(low, estimate - floor), Math.max(high, estimate + floor), level);
  }

  /** The Walsh averages, sorted. */
  static double[] walshAverages(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double[] walsh = new double[values.length * (values.length + 1) / 2];
    int w = 0;
    for (int i = 0; i < values.length; i++) {
      for (int j = i; j < values.length; j++) {
        walsh[w++] = (values[i] + values[j]) / 2;
      }
    }
    Arrays.sort(walsh);
    return walsh;
  }

  private static double median(double[] sorted) {
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
