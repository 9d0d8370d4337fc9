package io.plumb.repeat;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * B against A over paired rounds, metric by metric. The primary metric's verdict is its interval's
 * against the margin; every other metric is one of a family whose claims of a difference are held
 * together by Holm's correction to the same error rate as the primary's interval (1 - its level),
 * so sixteen metrics tested at once do not call noise a difference sixteen times as often.
 *
 * @param primary the headline's metric and why it was chosen
 * @param margin the smallest relative difference that matters, e.g. 0.05
 * @param lines one per metric both sides report, the primary's among them
 */
public record PairedComparison(PrimaryMetric.Chosen primary, double margin, List<Line> lines) {

  /**
   * One metric's outcome.
   *
   * @param difference null when there is nothing to estimate (too few samples, a figure of 0)
   * @param verdict null when no verdict is given; {@link #note} then says why
   * @param adjustedP Holm-adjusted p-value of "beyond the margin"; NaN for the primary and for
   *     metrics without a verdict
   * @param note why there is no verdict, or why the family control overruled the interval; "" if
   *     neither
   */
  public record Line(
      Metric metric,
      double medianA,
      double medianB,
      Difference difference,
      Verdict verdict,
      double adjustedP,
      String note) {

    public boolean isPrimary(PairedComparison comparison) {
      return metric.name().equals(comparison.primary().metric().name());
    }
  }

  public PairedComparison {
    lines = List.copyOf(lines);
  }

  public static PairedComparison of(
      List<JsonNode> a, List<JsonNode> b, PrimaryMetric primaryChoice, double margin) {
    List<JsonNode> all = new ArrayList<>(a);
    all.addAll(b);
    PrimaryMetric.Chosen primary = primaryChoice.resolve(all);
    List<Line> lines = new ArrayList<>();
    for (Metric metric : Metric.all()) {
      double[] valuesA = PairSummary.values(metric, a);
      double[] valuesB = PairSummary.values(metric, b);
      if (valuesA == null || valuesB == null) {
        continue; // a metric a side does not report (no consumers, no resources sampled)
      }
      lines.add(line(metric, valuesA, valuesB, all, margin));
    }
    return new PairedComparison(primary, margin, familyControlled(lines, primary.metric(), margin));
  }

  /** The line of the primary metric; null when the runs do not report it. */
  public Line primaryLine() {
    return lines.stream().filter(l -> l.isPrimary(this)).findFirst().orElse(null);
  }

  private static Line line(
      Metric metric, double[] a, double[] b, List<JsonNode> runs, double margin) {
    double medianA = median(a);
    double medianB = median(b);
    String tooFew = tooFewSamples(metric, runs);
    if (tooFew != null) {
      return new Line(metric, medianA, medianB, null, null, Double.NaN, tooFew);
    }
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] > 0 && b[i] > 0)) {
        return new Line(
            metric, medianA, medianB, null, null, Double.NaN, "no verdict: a run measured 0");
      }
    }
    Difference difference = Difference.of(a, b, margin, metric.relativeResolution());
    if (a.length < Difference.MIN_ROUNDS) {
      String note =
          String.format(
              "no verdict: %d paired round(s) reach at best a %s interval; %d or more are needed",
              a.length, Difference.percentLevel(difference.level()), Difference.MIN_ROUNDS);
      return new Line(metric, medianA, medianB, difference, null, Double.NaN, note);
    }
    return new Line(
        metric, medianA, medianB, difference, difference.intervalVerdict(margin), Double.NaN, "");
  }

  /**
   * The percentile rule: a run's q-percentile counts only when it holds at least 10 / (1 - q)
   * samples; otherwise the line says so instead of a verdict.
   */
  static String tooFewSamples(Metric metric, List<JsonNode> runs) {
    if (!metric.isPercentile()) {
      return null;
    }
    long fewest = Long.MAX_VALUE;
    for (JsonNode run : runs) {
      OptionalLong samples = metric.samples(run);
      fewest = Math.min(fewest, samples.orElse(0));
    }
    if (fewest >= metric.minSamples()) {
      return null;
    }
    return String.format(
        "not reported: %s needs %,d samples a run (10 beyond it), the fewest here %,d",
        metric.name().substring(metric.name().lastIndexOf(' ') + 1), metric.minSamples(), fewest);
  }

  /** Holm over every non-primary metric with a verdict, at 1 - the interval's level. */
  private static List<Line> familyControlled(List<Line> lines, Metric primary, double margin) {
    List<Integer> family = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Line line = lines.get(i);
      if (line.verdict() != null && !line.metric().name().equals(primary.name())) {
        family.add(i);
      }
    }
    List<Line> controlled = new ArrayList<>(lines);
    if (family.isEmpty()) {
      return controlled;
    }
    double[] p = new double[family.size()];
    for (int f = 0; f < p.length; f++) {
      p[f] = lines.get(family.get(f)).difference().pBeyondMargin();
    }
    double[] adjusted = Holm.adjust(p);
    for (int f = 0; f < p.length; f++) {
      Line line = lines.get(family.get(f));
      double alpha = 1 - line.difference().level();
      Verdict verdict = line.verdict();
      String note = "";
      if (verdict == Verdict.DIFFERENT && adjusted[f] > alpha + 1e-12) {
        verdict = Verdict.NOT_DISTINGUISHABLE;
        note =
            String.format(
                "beyond ±%s on its own, not after Holm over %d metrics (p %.4f, adjusted %.4f > %.4f)",
                percent(margin), p.length, p[f], adjusted[f], alpha);
      }
      controlled.set(
          family.get(f),
          new Line(
              line.metric(),
              line.medianA(),
              line.medianB(),
              line.difference(),
              verdict,
              adjusted[f],
              note));
    }
    return controlled;
  }

  /**
   * The margin as the user gave it: "5%", "2.5%", "1.25%". One decimal would print 1.25% as 1.3%
   * and call a 1.28% difference "beyond ±1.3%". (Six significant digits drop the binary noise of
   * share * 100.)
   */
  static String percent(double share) {
    return new BigDecimal(share * 100)
            .round(new MathContext(6))
            .stripTrailingZeros()
            .toPlainString()
        + "%";
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
