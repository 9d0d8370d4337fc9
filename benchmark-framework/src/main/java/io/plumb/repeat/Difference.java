package io.plumb.repeat;

import java.util.Arrays;
import java.util.List;

/**
 * B against A for one metric over paired rounds (--repeat runs A and B once in every round): the
 * per-round ratios B/A, their Hodges-Lehmann centre on the log scale with its exact Wilcoxon
 * signed-rank interval (see {@link HodgesLehmann}), turned back into ratios. Pairing removes what
 * the host did to both runs of a round; the rank statistics keep one wild round from dominating.
 *
 * @param roundRatios B/A of each round, in round order
 * @param ratio the Hodges-Lehmann estimate of B/A: the headline number, from the same statistic as
 *     its interval
 * @param low the interval's lower end, floored by the metric's resolution
 * @param level the interval's exact coverage (0.9375 with 5 rounds: 95% is not reachable)
 * @param pBeyondMargin exact p-value of the signed-rank test that B/A lies beyond the margin band
 *     (two-sided), before any family correction
 */
public record Difference(
    List<Double> roundRatios,
    double ratio,
    double low,
    double high,
    double level,
    double pBeyondMargin) {

  /** Fewer rounds than this and no verdict: 4 rounds reach at best an 87.5% interval. */
  public static final int MIN_ROUNDS = 5;

  public static final String METHOD =
      "paired rounds: Hodges-Lehmann estimate of B/A from the per-round log ratios, with its exact"
          + " Wilcoxon signed-rank interval";

  /**
   * @param a A's figure in each round, all > 0
   * @param b B's figure in the same rounds, all > 0
   * @param relativeResolution how finely each figure was recorded (see {@link
   *     Metric#relativeResolution}): A's and B's rounding together floor the interval's spread
   */
  public static Difference of(double[] a, double[] b, double margin, double relativeResolution) {
    if (a.length != b.length || a.length == 0) {
      throw new IllegalArgumentException("paired rounds: " + a.length + " A, " + b.length + " B");
    }
    double[] logs = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] > 0 && b[i] > 0)) {
        throw new IllegalArgumentException("paired rounds need figures > 0");
      }
      logs[i] = Math.log(b[i] / a[i]);
    }
    HodgesLehmann centre = HodgesLehmann.of(logs).withFloor(Math.log1p(2 * relativeResolution));
    double band = Math.log1p(margin);
    double p =
        Math.min(
            1, 2 * Math.min(HodgesLehmann.pAbove(logs, band), HodgesLehmann.pBelow(logs, -band)));
    return new Difference(
        Arrays.stream(logs).mapToObj(Math::exp).toList(),
        Math.exp(centre.estimate()),
        Math.exp(centre.low()),
        Math.exp(centre.high()),
        centre.level(),
        p);
  }

  public int rounds() {
    return roundRatios.size();
  }

  /** The verdict of the interval alone, before the family control has its say. */
  public Verdict intervalVerdict(double margin) {
    return Verdict.of(low, high, margin);
  }

  /** "B faster: 1.098x A" and the like; "(worse)" when B moved the wrong way. */
  public String differentWords(Metric metric) {
    boolean up = ratio > 1;
    String word =
        metric.unit().equals("msg/s") ? (up ? "faster" : "slower") : (up ? "higher" : "lower");
    String worse = metric.higherIsBetter() == up ? "" : " (worse)";
    return String.format("B %s: %s A%s", word, times(ratio), worse);
  }

  /** "93.8% CI 1.081x to 1.112x". */
  public String interval() {
    return String.format("%s CI %s to %s", percentLevel(level), times(low), times(high));
  }

  public static String times(double ratio) {
    return ratio >= 100 ? String.format("%.0fx", ratio) : String.format("%.3fx", ratio);
  }

  public static String percentLevel(double level) {
    return String.format("%.1f%%", level * 100);
  }
}
