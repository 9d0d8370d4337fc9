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
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The repeated runs of one workload and driver file: every metric's estimate and interval across
 * the runs that count, for the console and the summary JSON. Runs that were incomplete, lost
 * messages or were generator-bound are named and left out unless {@code includeAll} (see {@link
 * RunScreen}); a percentile the runs hold too few samples for is named instead of estimated.
 *
 * @param results each run's result file and JSON, in the order they ran
 */
public record PairSummary(
    String workload, Path driverFile, String driverName, List<Run> results, boolean includeAll) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** One run's result. */
  public record Run(Path file, JsonNode json) {}

  public PairSummary {
    results = List.copyOf(results);
  }

  /**
   * The runs that count: all of them with {@code includeAll}, else those {@link RunScreen} keeps.
   */
  public List<Run> counted() {
    return results.stream()
        .filter(r -> includeAll || RunScreen.reasonToLeaveOut(r.json()).isEmpty())
        .toList();
  }

  /** For every metric the counted runs report: its estimate, or why it is not reported. */
  public Map<Metric, Optional<Estimate>> estimates() {
    Map<Metric, Optional<Estimate>> estimates = new LinkedHashMap<>();
    List<JsonNode> counted = counted().stream().map(Run::json).toList();
    if (counted.isEmpty()) {
      return estimates;
    }
    for (Metric metric : Metric.all()) {
      double[] values = values(metric, counted);
      if (values != null) {
        boolean enough = PairedComparison.tooFewSamples(metric, counted) == null;
        estimates.put(
            metric,
            enough
                ? Optional.of(Estimate.of(values, metric.relativeResolution()))
                : Optional.empty());
      }
    }
    return estimates;
  }

  /** The metric's value in each run, or null when a run lacks it or every run measured 0. */
  static double[] values(Metric metric, List<JsonNode> runs) {
    if (runs.isEmpty()) {
      return null;
    }
    double[] values = new double[runs.size()];
    boolean anyPositive = false;
    for (int i = 0; i < runs.size(); i++) {
      OptionalDouble value = metric.read(runs.get(i));
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
    List<Run> counted = counted();
    json.put("countedRuns", counted.size());
    ArrayNode files = json.putArray("results");
    for (Run run : results) {
      ObjectNode entry = files.addObject();
      entry.put("file", run.file().toString());
      entry.put("complete", run.json().path("complete").asBoolean(false));
      Optional<String> why = RunScreen.reasonToLeaveOut(run.json());
      entry.put("counted", includeAll || why.isEmpty());
      why.ifPresent(reason -> entry.put("leaveOutReason", reason));
    }
    List<JsonNode> countedJson = counted.stream().map(Run::json).toList();
    ObjectNode metrics = json.putObject("metrics");
    estimates()
        .forEach(
            (metric, estimate) -> {
              ObjectNode node = metrics.putObject(metric.name());
              node.put("unit", metric.unit());
              ArrayNode values = node.putArray("values");
              for (double value : values(metric, countedJson)) {
                values.add(value);
              }
              if (estimate.isEmpty()) {
                node.put("notReported", PairedComparison.tooFewSamples(metric, countedJson));
                return;
              }
              Estimate e = estimate.get();
              node.put("runs", e.runs());
              node.put("median", e.median());
              node.put("min", e.min());
              node.put("max", e.max());
              if (e.estimate() != null) {
                node.put("estimate", e.estimate());
              }
              if (e.hasInterval()) {
                ObjectNode interval = node.putObject("interval");
                interval.put("low", e.low());
                interval.put("high", e.high());
                interval.put("level", e.level());
              } else {
                node.putNull("interval");
              }
            });
    return json;
  }

  public void print(PrintStream out) {
    List<Run> counted = counted();
    out.printf(
        "%n== %s with %s (%s): %d run(s), %d counted%s%n",
        workload,
        driverFile,
        driverName,
        results.size(),
        counted.size(),
        includeAll ? " (--include-all)" : "");
    if (!includeAll) {
      for (Run run : results) {
        RunScreen.reasonToLeaveOut(run.json())
            .ifPresent(why -> out.printf("   left out: %s: %s%n", run.file(), why));
      }
    }
    Map<Metric, Optional<Estimate>> estimates = estimates();
    if (estimates.isEmpty()) {
      out.println("   no run counts: nothing to summarise (--include-all keeps every run)");
      return;
    }
    out.printf(
        "   %-18s %6s %12s %28s %12s %12s%n",
        "metric", "unit", "estimate", "interval", "min", "max");
    List<JsonNode> countedJson = counted.stream().map(Run::json).toList();
    estimates.forEach(
        (metric, estimate) -> {
          if (estimate.isEmpty()) {
            out.printf(
                "   %-18s %6s %s%n",
                metric.name(), metric.unit(), PairedComparison.tooFewSamples(metric, countedJson));
            return;
          }
          Estimate e = estimate.get();
          out.printf(
              "   %-18s %6s %12s %28s %12s %12s%n",
              metric.name(),
              metric.unit(),
              e.estimate() == null ? "n/a" : metric.format(e.estimate()),
              e.hasInterval()
                  ? Difference.percentLevel(e.level())
                      + " "
                      + metric.format(e.low())
                      + " to "
                      + metric.format(e.high())
                  : e.runs() < 2 ? "n/a (1 run)" : "n/a (a run measured 0)",
              metric.format(e.min()),
              metric.format(e.max()));
        });
  }
}
