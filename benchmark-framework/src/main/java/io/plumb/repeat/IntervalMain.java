package io.plumb.repeat;

import java.util.Arrays;

/**
 * Prints the median and 95% interval of the numbers given, one line, for scripts that measure
 * outside a run (the {@code deploy/local/*-vs-native.sh} ratios): {@code PLUMB_MAIN_CLASS=
 * io.plumb.repeat.IntervalMain bin/benchmark 1.02 0.97 1.10}. Same statistics as {@code --repeat}.
 */
public final class IntervalMain {
  private IntervalMain() {}

  public static void main(String[] args) {
    double[] values;
    try {
      values = Arrays.stream(args).mapToDouble(Double::parseDouble).toArray();
    } catch (NumberFormatException e) {
      System.err.println("error: expected numbers, got " + String.join(" ", args));
      System.exit(2);
      return;
    }
    if (values.length == 0) {
      System.err.println("error: expected numbers, got none");
      System.exit(2);
    }
    Estimate e = Estimate.of(values);
    System.out.printf(
        "median %.3f, 95%% CI %s (geometric mean %s, %d values from %.3f to %.3f)%n",
        e.median(),
        e.hasInterval() ? String.format("%.3f to %.3f", e.ci95Low(), e.ci95High()) : "n/a",
        e.geometricMean() == null ? "n/a" : String.format("%.3f", e.geometricMean()),
        e.runs(),
        e.min(),
        e.max());
  }
}
