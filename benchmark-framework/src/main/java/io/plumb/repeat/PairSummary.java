package io.plumb.repeat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The repeated runs of one workload and driver file: every metric's median and 95% interval across
 * the complete runs, for the console and the summary JSON. Incomplete runs are listed but not
 * counted: a run cut short measures something else.
 *
 * @param results each run's result file and JSON, in the order they ran
 */
public record PairSummary(String workload, Path driverFile, String driverName, List<Run> results) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** One run's result. */
  public record Run(Path file, JsonNode json) {
    boolean complete() {
      return json.path("complete").asBoolean(false);
    }
  }

  public PairSummary {
    results = List.copyOf(results);
  }

  public List<Run> complete() {
    return results.stream().filter(Run::complete).toList();
  }

  /** Each metric that every complete run reports, with its estimate across them. */
  public Map<Metric, Estimate> estimates() {
    Map<Metric, Estimate> estimates = new LinkedHashMap<>();
    List<Run> complete = complete();
    if (complete.isEmpty()) {
      return estimates;
    }
    for (Metric metric : Metric.all()) {
      double[] values = values(metric, complete);
      if (values != null) {
        estimates.put(metric, Estimate.of(values));
      }
    }
    return estimates;
  }

  /** The metric's value in each run, or null when a run lacks it or every run measured 0. */
  static double[] values(Metric metric, List<Run> runs) {
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

  public ObjectNode toJson() {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("workload", workload);
    json.put("driverFile", driverFile.toString());
    json.put("driver", driverName);
    json.put("runs", results.size());
    json.put("completeRuns", complete().size());
    ArrayNode files = json.putArray("results");
    for (Run run : results) {
      ObjectNode entry = files.addObject();
      entry.put("file", run.file().toString());
      entry.put("complete", run.complete());
    }
    ObjectNode metrics = json.putObject("metrics");
    estimates()
        .forEach(
            (metric, estimate) -> {
              ObjectNode node = metrics.putObject(metric.name());
              node.put("unit", metric.unit());
              node.put("runs", estimate.runs());
              node.put("median", estimate.median());
              node.put("min", estimate.min());
              node.put("max", estimate.max());
              if (estimate.geometricMean() != null) {
                node.put("geometricMean", estimate.geometricMean());
              }
              if (estimate.hasInterval()) {
                ObjectNode ci = node.putObject("ci95");
                ci.put("low", estimate.ci95Low());
                ci.put("high", estimate.ci95High());
              } else {
                node.putNull("ci95");
              }
              ArrayNode values = node.putArray("values");
              for (double value : values(metric, complete())) {
                values.add(value);
              }
            });
    return json;
  }

  public void print(PrintStream out) {
    out.printf(
        "%n== %s with %s (%s): %d run(s), %d complete%n",
        workload, driverFile, driverName, results.size(), complete().size());
    Map<Metric, Estimate> estimates = estimates();
    if (estimates.isEmpty()) {
      out.println("   no complete run: nothing to summarise");
      return;
    }
    out.printf(
        "   %-18s %6s %12s %27s %12s %12s%n", "metric", "unit", "median", "95% CI", "min", "max");
    estimates.forEach(
        (metric, e) ->
            out.printf(
                "   %-18s %6s %12s %27s %12s %12s%n",
                metric.name(),
                metric.unit(),
                format(metric, e.median()),
                e.hasInterval()
                    ? format(metric, e.ci95Low()) + " to " + format(metric, e.ci95High())
                    : e.runs() < 2 ? "n/a (1 run)" : "n/a (a run measured 0)",
                format(metric, e.min()),
                format(metric, e.max())));
  }

  static String format(Metric metric, double value) {
    return switch (metric.unit()) {
      case "msg/s" -> String.format("%,.0f", value);
      case "cores" -> String.format("%.2f", value);
      default -> value >= 100 ? String.format("%.1f", value) : String.format("%.3f", value);
    };
  }
}
