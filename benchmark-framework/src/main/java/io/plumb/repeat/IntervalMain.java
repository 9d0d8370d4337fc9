package io.plumb.repeat;

import java.util.Arrays;

/**
 * Prints the Hodges-Lehmann estimate and exact signed-rank interval of the numbers given (95%, or
 * the closest level their count reaches, stated), one line, for scripts that measure outside a run
 * (the {@code deploy/local/*-vs-native.sh} ratios): {@code PLUMB_MAIN_CLASS=
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
    Estimate e = Estimate.of(values, 0);
    System.out.printf(
        "estimate %s, %s (median %.3f, %d values from %.3f to %.3f; %s)%n",
        e.estimate() == null ? "n/a" : String.format("%.3f", e.estimate()),
        e.hasInterval()
            ? String.format(
                "%s CI %.3f to %.3f", Difference.percentLevel(e.level()), e.low(), e.high())
            : "no interval",
        e.median(),
        e.runs(),
        e.min(),
        e.max(),
        Estimate.METHOD);
  }
}
