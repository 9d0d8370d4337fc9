package io.plumb.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The report's table: one column per result, one row per figure (rates, latency percentiles,
 * message accounting, the generator verdict, search outcomes when present, and the settings that
 * differ), so results compare along each row.
 */
final class SummaryTable {
  private record Row(String name, Function<ResultFile, String> value) {}

  private static final List<String> LATENCY_PERCENTILES =
      List.of("p50", "p99", "p99.9", "p99.99", "max");

  private SummaryTable() {}

  static String render(List<ResultFile> results, List<String> labels) {
    StringBuilder html = new StringBuilder("<table class=\"summary\"><thead><tr><th></th>");
    for (int i = 0; i < results.size(); i++) {
      html.append("<th><span class=\"swatch\" style=\"background:")
          .append(Palette.color(i))
          .append("\"></span>")
          .append(Html.text(labels.get(i)))
          .append("</th>");
    }
    html.append("</tr></thead><tbody>");
    section(html, results, "Run", runRows());
    section(html, results, "Throughput", throughputRows());
    section(html, results, "Publish latency (ms, from intended send)", latencyRows("publish"));
    section(html, results, "End-to-end latency (ms)", endToEndRows(results));
    section(html, results, "Messages", messageRows());
    if (results.stream().anyMatch(r -> summary(r).isObject())) {
      section(html, results, "Resources (measured phase)", resourceRows());
    }
    List<Row> search = searchRows(results);
    if (!search.isEmpty()) {
      section(html, results, "Search", search);
    }
    Map<String, List<String>> differences = ConfigDifferences.of(results);
    if (!differences.isEmpty()) {
      html.append("<tr class=\"section\"><th colspan=\"")
          .append(results.size() + 1)
          .append("\">Settings that differ</th></tr>");
      differences.forEach(
          (key, values) -> {
            html.append("<tr><th>").append(Html.text(key)).append("</th>");
            values.forEach(v -> html.append("<td>").append(Html.text(v)).append("</td>"));
            html.append("</tr>");
          });
    }
    return html.append("</tbody></table>").toString();
  }

  private static void section(
      StringBuilder html, List<ResultFile> results, String title, List<Row> rows) {
    html.append("<tr class=\"section\"><th colspan=\"")
        .append(results.size() + 1)
        .append("\">")
        .append(Html.text(title))
        .append("</th></tr>");
    for (Row row : rows) {
      html.append("<tr><th>").append(Html.text(row.name())).append("</th>");
      for (ResultFile result : results) {
        html.append("<td>").append(Html.text(row.value().apply(result))).append("</td>");
      }
      html.append("</tr>");
    }
  }

  private static List<Row> runRows() {
    return List.of(
        new Row("file", r -> r.path().getFileName().toString()),
        new Row("workload", ResultFile::workload),
        new Row("driver", ResultFile::driver),
        new Row("message size (bytes)", r -> number(r.json().path("messageSize"))),
        new Row(
            "measured (s)", r -> number(r.json().path("phases").path("measuredSeconds"), "%.1f")),
        new Row(
            "complete",
            r ->
                (r.json().path("complete").asBoolean(false)
                        ? "yes"
                        : "INCOMPLETE: " + r.json().path("incompleteReason").asText(""))
                    // A fault that was not applied or not undone: say so where users look first.
                    + (r.json().has("faultFailure")
                        ? "; FAULT FAILED: " + r.json().path("faultFailure").asText()
                        : "")),
        new Row("generator", SummaryTable::verdict),
        new Row("bottleneck", SummaryTable::bottleneck));
  }

  /** Who limited the rate and the figures that decided it; results from before it say nothing. */
  private static String bottleneck(ResultFile result) {
    JsonNode bottleneck = result.json().path("bottleneck");
    if (!bottleneck.isObject()) {
      return "";
    }
    return bottleneck.path("verdict").asText() + ": " + bottleneck.path("reason").asText();
  }

  /**
   * The worker's, the host's and the local brokers' resources over the measured phase; with remote
   * workers, each worker JVM's and its host's figures, comma-separated in the workers' order.
   */
  private static List<Row> resourceRows() {
    return List.of(
        new Row(
            "worker CPU (cores, user + system)", r -> eachWorker(r, w -> cpu(w.path("worker")))),
        new Row("worker GC (collections, ms)", r -> eachWorker(r, w -> gc(w.path("worker")))),
        new Row(
            "worker heap max (MB)",
            r -> eachWorker(r, w -> number(w.path("worker").path("heapUsedMaxMB"), "%,.0f"))),
        new Row(
            "host steal (%)",
            r -> eachWorker(r, w -> number(w.path("host").path("stealPercent"), "%.1f"))),
        new Row("broker CPU (cores)", r -> brokers(r, "cpuCores", "%.2f")),
        new Row("broker resident max (MB)", r -> brokers(r, "residentMaxMB", "%,.0f")),
        new Row("broker disk written (MB)", r -> brokers(r, "diskWrittenMB", "%,.1f")));
  }

  private static JsonNode summary(ResultFile result) {
    return result.json().path("resources").path("summary");
  }

  /** One figure per worker JVM's summary: the remote workers' when there are, else this one's. */
  private static String eachWorker(ResultFile result, Function<JsonNode, String> figure) {
    JsonNode remote = result.json().path("resources").path("remoteWorkers");
    if (!remote.isObject() || remote.isEmpty()) {
      return figure.apply(summary(result));
    }
    List<String> parts = new ArrayList<>();
    remote.elements().forEachRemaining(w -> parts.add(figure.apply(w.path("summary"))));
    return String.join(", ", parts);
  }

  private static String cpu(JsonNode worker) {
    if (!worker.path("cpuUserCores").isNumber()) {
      return "";
    }
    double user = worker.path("cpuUserCores").asDouble();
    double system = worker.path("cpuSystemCores").asDouble();
    return String.format(Locale.ROOT, "%.2f (%.2f + %.2f)", user + system, user, system);
  }

  private static String gc(JsonNode worker) {
    if (!worker.path("gcCount").isNumber()) {
      return "";
    }
    return worker.path("gcCount").asLong()
        + String.format(Locale.ROOT, " in %.1f ms", worker.path("gcMillis").asDouble())
        + (worker.path("gcLongestPauseMillis").isNumber()
            ? String.format(
                Locale.ROOT, " (longest %.1f ms)", worker.path("gcLongestPauseMillis").asDouble())
            : "")
        + (worker.path("gcSource").asText("").startsWith("GC MXBeans")
            ? " (MXBeans: G1 Remark and Cleanup not seen)"
            : "");
  }

  /** Each local broker node's figure, "kafka/1 0.59", comma-separated. */
  private static String brokers(ResultFile result, String field, String format) {
    List<String> parts = new ArrayList<>();
    summary(result)
        .path("brokers")
        .fields()
        .forEachRemaining(
            node ->
                parts.add(
                    node.getKey()
                        + " "
                        + String.format(
                            Locale.ROOT, format, node.getValue().path(field).asDouble())));
    return String.join(", ", parts);
  }

  private static String verdict(ResultFile result) {
    if (!result.json().path("generatorBound").asBoolean(false)) {
      return "kept to schedule";
    }
    List<String> reasons = new ArrayList<>();
    result.json().path("generatorBoundReasons").forEach(r -> reasons.add(r.asText()));
    return "GENERATOR-BOUND: " + String.join("; ", reasons);
  }

  private static List<Row> throughputRows() {
    return List.of(
        throughput("target (msg/s)", "targetRateMsgPerSec", "%,.0f"),
        throughput("published (msg/s)", "publishRateMsgPerSec", "%,.0f"),
        throughput("consumed (msg/s)", "consumeRateMsgPerSec", "%,.0f"),
        throughput("published (MB/s)", "publishMBPerSec", "%,.2f"),
        throughput("consumed (MB/s)", "consumeMBPerSec", "%,.2f"));
  }

  private static Row throughput(String name, String field, String format) {
    return new Row(name, r -> number(r.json().path("throughput").path(field), format));
  }

  private static List<Row> latencyRows(String family) {
    return rowPerName(
        LATENCY_PERCENTILES,
        (r, percentile) -> {
          JsonNode latency = r.json().path("latency").path(family);
          return latency.path("count").asLong(0) == 0
              ? "—"
              : millis(latency.path(percentile).asDouble());
        });
  }

  /** One row per name, each cell what {@code cell} reads from a result under that name. */
  private static List<Row> rowPerName(
      Collection<String> names, BiFunction<ResultFile, String, String> cell) {
    List<Row> rows = new ArrayList<>();
    for (String name : names) {
      rows.add(new Row(name, r -> cell.apply(r, name)));
    }
    return rows;
  }

  /**
   * As {@link #latencyRows}, with each figure of a result across hosts followed by the clock
   * offsets' uncertainty, and a row saying how well those clocks are known (plainly, where the
   * uncertainty exceeds a tenth of the median).
   */
  private static List<Row> endToEndRows(List<ResultFile> results) {
    List<Row> rows = new ArrayList<>();
    for (Row row : latencyRows("endToEnd")) {
      rows.add(
          new Row(
              row.name(),
              r -> {
                String figure = row.value().apply(r);
                JsonNode uncertainty = endToEndClock(r).path("clockUncertaintyMillis");
                return uncertainty.isNumber() && !figure.equals("—")
                    ? figure + " ± " + millis(uncertainty.asDouble())
                    : figure;
              }));
    }
    if (results.stream().anyMatch(r -> endToEndClock(r).has("clockUncertaintyMillis"))) {
      rows.add(
          new Row(
              "clocks across hosts",
              r -> {
                JsonNode endToEnd = endToEndClock(r);
                if (endToEnd.has("clockWarning")) {
                  return endToEnd.path("clockWarning").asText();
                }
                return endToEnd.has("clockUncertaintyMillis")
                    ? "offsets known to ± "
                        + millis(endToEnd.path("clockUncertaintyMillis").asDouble())
                        + " ms"
                    : "";
              }));
    }
    return rows;
  }

  private static JsonNode endToEndClock(ResultFile result) {
    return result.json().path("latency").path("endToEnd");
  }

  private static List<Row> messageRows() {
    return List.of(
        counter("sent", "sent"),
        counter("received", "received"),
        new Row(
            "errors",
            r -> {
              JsonNode c = r.json().path("counters");
              long errors = c.path("failed").asLong() + c.path("consumerErrors").asLong();
              return String.format(Locale.ROOT, "%,d", errors);
            }),
        counter("lost", "lost"),
        counter("duplicated", "duplicated"),
        counter("out of order", "outOfOrder"),
        counter("in flight at the end", "inFlight"));
  }

  private static Row counter(String name, String field) {
    return new Row(name, r -> number(r.json().path("counters").path(field)));
  }

  /** One row per top-level field of any result's {@code search} object, whatever its shape. */
  private static List<Row> searchRows(List<ResultFile> results) {
    Set<String> fields = new LinkedHashSet<>();
    for (ResultFile result : results) {
      JsonNode search = result.json().path("search");
      if (search.isObject()) {
        search.fieldNames().forEachRemaining(fields::add);
      }
    }
    return rowPerName(
        fields,
        (r, field) -> {
          JsonNode value = r.json().path("search").path(field);
          if (value.isMissingNode()) {
            return "—";
          }
          if (value.isArray()) {
            return value.size() + " entries (below)";
          }
          return value.isObject() ? "(below)" : JsonHtml.scalar(value);
        });
  }

  static String millis(double value) {
    if (value >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (value >= 1) {
      return String.format(Locale.ROOT, "%.2f", value);
    }
    // Three significant figures below a millisecond: a loopback's 0.0003 ms is not 0.000.
    return value == 0 ? "0" : String.format(Locale.ROOT, "%.3g", value);
  }

  private static String number(JsonNode node) {
    return node.isNumber() ? JsonHtml.scalar(node) : "—";
  }

  private static String number(JsonNode node, String format) {
    return node.isNumber() ? String.format(Locale.ROOT, format, node.asDouble()) : "—";
  }
}
