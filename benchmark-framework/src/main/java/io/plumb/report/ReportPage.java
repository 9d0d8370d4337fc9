package io.plumb.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.result.UntimedAcknowledgements;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * The report as one HTML document: the summary table rendered here, the charts drawn in the browser
 * by Chart.js (inlined) from data embedded in the page, so the file opens offline and alone.
 */
final class ReportPage {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final DateTimeFormatter GENERATED =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Z]+)}}");

  /** A chart: the result field it draws, its title, and a note (the unit, for timelines). */
  private record Chart(String field, String title, String note) {}

  /** Latency families ({@code latency.<field>.histogram}) drawn on the nines axis. */
  private static final List<Chart> NINES =
      List.of(
          new Chart("publish", "Publish latency", "from the intended send time"),
          new Chart("endToEnd", "End-to-end latency", "intended send to receipt"),
          new Chart("serviceTime", "Service time", "from the actual send, as OMB measures"));

  /** Per-period series of the result JSON drawn over time. */
  private static final List<Chart> TIMELINES =
      List.of(
          new Chart("publishRate", "Publish rate (attempts)", "msg/s"),
          new Chart("acknowledgeRate", "Acknowledged rate", "msg/s"),
          new Chart("consumeRate", "Consume rate", "msg/s"),
          new Chart("backlog", "Backlog", "messages"),
          new Chart("publishLatency99pct", "Publish latency p99", "ms"),
          new Chart("endToEndLatency99pct", "End-to-end latency p99", "ms"));

  /**
   * Resources over time ({@code resources.periods} of the result), and the goodput around faults,
   * drawn beside the rates and latencies when some result has them: a result from before resources
   * were sampled, or a run with no local broker or no fault, simply has no such chart.
   */
  private static final List<Chart> RESOURCE_TIMELINES =
      List.of(
          new Chart("workerCpuCores", "Worker CPU (user + system, all workers)", "cores"),
          new Chart("brokerCpuCores", "Broker CPU (local broker processes)", "cores"),
          new Chart(
              Timeline.FAULT_GOODPUT, "Acknowledged rate around each fault, per 100 ms", "msg/s"));

  private ReportPage() {}

  private static List<Chart> timelines(List<ResultFile> results) {
    List<Chart> charts = new ArrayList<>(TIMELINES);
    for (Chart chart : RESOURCE_TIMELINES) {
      if (results.stream().anyMatch(r -> !Timeline.of(r.json(), chart.field()).isEmpty())) {
        charts.add(chart);
      }
    }
    return charts;
  }

  static String render(
      List<ResultFile> results,
      List<JsonNode> repeatSummaries,
      List<Path> hgrmFiles,
      Path reportFile) {
    List<String> labels = Labels.of(results);
    String title =
        results.size() == 1
            ? "Plumb report: " + labels.get(0)
            : "Plumb report: " + results.size() + " results";
    String subtitle =
        "Generated "
            + ZonedDateTime.now(ZoneOffset.UTC).format(GENERATED)
            + " UTC from "
            + results.size()
            + " result file(s). Charts by Chart.js "
            + ChartLibrary.version()
            + ", inlined: this file opens offline.";
    Map<String, String> values =
        Map.of(
            "VERSION", version(),
            "TITLE", Html.text(title),
            "SUBTITLE", Html.text(subtitle),
            "SUMMARY", SummaryTable.render(results, labels),
            "SEARCH", RepeatSection.render(repeatSummaries) + searchSections(results, labels),
            "FILES", files(results, hgrmFiles, reportFile),
            "CHARTJS", ChartLibrary.script(),
            "DATA", Html.scriptJson(chartData(results, labels)),
            "APP", resource("report.js"));
    Matcher matcher = PLACEHOLDER.matcher(resource("report.html"));
    StringBuilder page = new StringBuilder();
    while (matcher.find()) {
      matcher.appendReplacement(page, Matcher.quoteReplacement(values.get(matcher.group(1))));
    }
    matcher.appendTail(page);
    return page.toString();
  }

  private static String chartData(List<ResultFile> results, List<String> labels) {
    ObjectNode data = MAPPER.createObjectNode();
    data.put("ninesMaxX", NinesCurve.MAX_X);
    ArrayNode described = data.putArray("results");
    for (int i = 0; i < results.size(); i++) {
      described.addObject().put("label", labels.get(i)).put("color", Palette.color(i));
    }
    ArrayNode nines = data.putArray("nines");
    for (Chart family : NINES) {
      ObjectNode chart = nines.addObject();
      chart
          .put("id", family.field())
          .put("title", family.title())
          .put("note", family.note() + untimedNote(family, results, labels));
      ArrayNode series = chart.putArray("series");
      for (int i = 0; i < results.size(); i++) {
        Histogram histogram = results.get(i).histograms().get(family.field());
        if (histogram == null || histogram.getTotalCount() == 0) {
          continue;
        }
        ArrayNode points = series.addObject().put("result", i).putArray("points");
        for (NinesCurve.Point point : NinesCurve.of(histogram)) {
          points.addArray().add(point.x()).add(point.millis()).add(point.percentile());
        }
      }
    }
    ArrayNode timelines = data.putArray("timelines");
    for (Chart timeline : timelines(results)) {
      ObjectNode chart = timelines.addObject();
      chart.put("id", timeline.field()).put("title", timeline.title()).put("unit", timeline.note());
      ArrayNode series = chart.putArray("series");
      for (int i = 0; i < results.size(); i++) {
        ArrayNode points = series.addObject().put("result", i).putArray("points");
        for (Timeline.Point point : Timeline.of(results.get(i).json(), timeline.field())) {
          ArrayNode xy = points.addArray().add(point.seconds());
          if (Double.isNaN(point.value())) {
            xy.addNull(); // no sample in the period: a break in the line, not a value
          } else {
            xy.add(point.value());
          }
        }
      }
    }
    // Fault markers for every timeline: when each fault was applied and undone.
    ArrayNode faults = data.putArray("faults");
    for (int i = 0; i < results.size(); i++) {
      for (var fault : results.get(i).json().path("faults")) {
        if (!fault.path("appliedSeconds").isNumber()) {
          continue;
        }
        ObjectNode marker = faults.addObject().put("result", i);
        marker.put(
            "label",
            "fault "
                + fault.path("index").asInt()
                + ": "
                + fault.path("action").asText()
                + " "
                + String.join(",", nodeNames(fault)));
        marker.put("applied", fault.path("appliedSeconds").asDouble());
        if (fault.path("undoneSeconds").isNumber()) {
          marker.put("undone", fault.path("undoneSeconds").asDouble());
        }
      }
    }
    try {
      return MAPPER.writeValueAsString(data);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * For service time, which leaves out acknowledgements whose send time was no longer held, each
   * result's count of them and the percentile above which its curve may read low; "" otherwise.
   */
  private static String untimedNote(Chart family, List<ResultFile> results, List<String> labels) {
    if (!family.field().equals("serviceTime")) {
      return "";
    }
    StringBuilder note = new StringBuilder();
    for (int i = 0; i < results.size(); i++) {
      var latency = results.get(i).json().path("latency");
      long untimed = latency.path("untimedAcknowledgements").asLong(0);
      if (untimed > 0) {
        note.append(
            String.format(
                "; %s leaves out %,d acknowledgements whose send time was no longer held, so above"
                    + " %s it may read low",
                labels.get(i),
                untimed,
                UntimedAcknowledgements.label(latency.path("untimedFromPercentile").asDouble())));
      }
    }
    return note.toString();
  }

  private static List<String> nodeNames(com.fasterxml.jackson.databind.JsonNode fault) {
    List<String> names = new java.util.ArrayList<>();
    fault.path("nodes").forEach(node -> names.add("node " + node.asText()));
    return names;
  }

  /** Each result's {@code search} object, shown whole whatever its shape. */
  private static String searchSections(List<ResultFile> results, List<String> labels) {
    StringBuilder html = new StringBuilder();
    for (int i = 0; i < results.size(); i++) {
      var search = results.get(i).json().path("search");
      if (search.isMissingNode() || search.isNull()) {
        continue;
      }
      html.append("<h3>Search: ")
          .append(Html.text(labels.get(i)))
          .append("</h3>")
          .append(JsonHtml.render(search));
    }
    return html.toString();
  }

  private static String files(List<ResultFile> results, List<Path> hgrmFiles, Path reportFile) {
    StringBuilder html = new StringBuilder("<p class=\"note\">Results:</p><ul>");
    for (ResultFile result : results) {
      html.append("<li><code>").append(Html.text(result.path().toString())).append("</code></li>");
    }
    html.append("</ul>");
    if (!hgrmFiles.isEmpty()) {
      html.append(
          "<p class=\"note\">HdrHistogram percentile files (microseconds), beside this report:</p><ul>");
      Path directory = reportFile.toAbsolutePath().getParent();
      for (Path file : hgrmFiles) {
        String name = directory.relativize(file.toAbsolutePath()).toString();
        html.append("<li><a href=\"")
            .append(Html.text(name))
            .append("\"><code>")
            .append(Html.text(name))
            .append("</code></a></li>");
      }
      html.append("</ul>");
    }
    return html.toString();
  }

  private static String version() {
    String version = ReportPage.class.getPackage().getImplementationVersion();
    return version == null ? "development build" : version;
  }

  private static String resource(String name) {
    try (InputStream in = ReportPage.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
