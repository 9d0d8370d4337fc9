package io.plumb.repeat;

import java.io.PrintStream;
import java.util.stream.Collectors;

/**
 * A {@link PairedComparison} on the console: the headline verdict about the primary metric with the
 * evidence it rests on (every round's ratio, the estimate, the interval and its exact level, the
 * margin), then one line per metric.
 */
public final class ComparisonReport {
  private ComparisonReport() {}

  public static void print(PrintStream out, PairedComparison comparison) {
    String margin = PairedComparison.percent(comparison.margin());
    PairedComparison.Line primary = comparison.primaryLine();
    out.printf(
        "Primary      %s (%s); margin ±%s%n",
        comparison.primary().metric().name(), comparison.primary().reason(), margin);
    out.println("VERDICT      " + headline(comparison, primary));
    out.printf(
        "%-18s %6s %12s %12s %9s %26s  %s%n",
        "metric", "unit", "A median", "B median", "B/A", "interval", "verdict");
    for (PairedComparison.Line line : comparison.lines()) {
      Metric metric = line.metric();
      Difference d = line.difference();
      out.printf(
          "%-18s %6s %12s %12s %9s %26s  %s%n",
          metric.name(),
          metric.unit(),
          metric.format(line.medianA()),
          metric.format(line.medianB()),
          d == null ? "" : Difference.times(d.ratio()),
          d == null ? "" : d.interval(),
          (line.isPrimary(comparison) ? "PRIMARY " : "") + words(line, comparison.margin()));
    }
    out.println(
        "(B/A: "
            + Difference.METHOD
            + ", floored by each figure's recording resolution; verdicts against the ±"
            + margin
            + " margin; the metrics other than the primary share one error budget by Holm's"
            + " correction; A and B medians shown for reading only)");
  }

  /** The primary metric's verdict and the evidence it rests on, in one line. */
  public static String headline(PairedComparison comparison, PairedComparison.Line primary) {
    String name = comparison.primary().metric().name();
    if (primary == null) {
      return name + ": no verdict: the runs do not report it";
    }
    Difference d = primary.difference();
    if (primary.verdict() == null) {
      return name + ": " + primary.note();
    }
    String evidence =
        String.format(
            "B/A %s, %s (Hodges-Lehmann over %d paired rounds; per round %s)",
            Difference.times(d.ratio()),
            d.interval(),
            d.rounds(),
            d.roundRatios().stream().map(Difference::times).collect(Collectors.joining(" ")));
    return name + ": " + words(primary, comparison.margin()) + "; " + evidence;
  }

  /** The verdict in words, with the reason where there is none or where Holm overruled. */
  static String words(PairedComparison.Line line, double margin) {
    if (line.verdict() == null) {
      return line.note();
    }
    String band = "±" + PairedComparison.percent(margin);
    return switch (line.verdict()) {
      case DIFFERENT ->
          line.difference().differentWords(line.metric())
              + ", beyond "
              + band
              + (Double.isNaN(line.adjustedP())
                  ? ""
                  : String.format(" (Holm-adjusted p %.4f)", line.adjustedP()));
      case SAME_WITHIN_MARGIN -> "same within " + band;
      case NOT_DISTINGUISHABLE ->
          "not distinguishable"
              + (line.note().isEmpty()
                  ? " (interval reaches inside and beyond " + band + ")"
                  : ": " + line.note());
    };
  }
}
