package io.plumb.compare;

import io.plumb.repeat.Difference;
import io.plumb.repeat.Estimate;
import io.plumb.repeat.Metric;
import io.plumb.report.ResultFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * B against A, metric by metric, over the complete runs of each side: the medians, and the ratio of
 * B to A with its 95% interval and a verdict in words.
 */
final class Comparison {

  /**
   * One metric's line.
   *
   * @param difference empty when no verdict is possible (too few runs, or a value that is not > 0)
   */
  record Line(
      Metric metric, Estimate a, Estimate b, Optional<Difference> difference, String verdict) {}

  private Comparison() {}

  static List<Line> of(ResultSide a, ResultSide b) {
    List<ResultFile> runsA = a.complete();
    List<ResultFile> runsB = b.complete();
    List<Line> lines = new ArrayList<>();
    for (Metric metric : Metric.all()) {
      double[] valuesA = values(metric, runsA);
      double[] valuesB = values(metric, runsB);
      if (valuesA == null || valuesB == null) {
        continue; // a metric one side does not report (no consumers, no resources sampled)
      }
      Optional<Difference> difference = Difference.of(valuesA, valuesB);
      String verdict;
      if (difference.isPresent()) {
        verdict = difference.get().verdict(metric);
      } else if (runsA.size() < Difference.MIN_RUNS_A_SIDE
          || runsB.size() < Difference.MIN_RUNS_A_SIDE) {
        verdict =
            String.format(
                "no verdict possible: A has %d complete run(s), B %d; at least %d a side are needed",
                runsA.size(), runsB.size(), Difference.MIN_RUNS_A_SIDE);
      } else {
        verdict = "no verdict possible: a run measured 0";
      }
      lines.add(new Line(metric, Estimate.of(valuesA), Estimate.of(valuesB), difference, verdict));
    }
    return lines;
  }

  private static double[] values(Metric metric, List<ResultFile> runs) {
    if (runs.isEmpty()) {
      return null;
    }
    double[] values = new double[runs.size()];
    boolean anyPositive = false;
    for (int i = 0; i < runs.size(); i++) {
      OptionalDouble value = metric.read(runs.get(i).json());
      if (value.isEmpty()) {
        return null;
      }
      values[i] = value.getAsDouble();
      anyPositive |= values[i] > 0;
    }
    return anyPositive ? values : null;
  }
}
