package io.plumb.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.repeat.Metric;
import java.util.List;
import java.util.Map;

/**
 * The report's section for {@code --repeat} summaries: per workload and driver file, each metric's
 * estimate, interval (with its exact level) and range across the runs, as {@code
 * repeat-summary-*.json} holds them; a percentile the runs held too few samples for says so.
 */
final class RepeatSection {
  private RepeatSection() {}

  static String render(List<JsonNode> summaries) {
    StringBuilder html = new StringBuilder();
    for (JsonNode summary : summaries) {
      html.append("<h2>Repeated runs: ")
          .append(summary.path("repeat").asInt())
          .append(" of each pair</h2><p>")
          .append(Html.text(summary.path("intervalMethod").asText()))
          .append("; order: ")
          .append(Html.text(summary.path("orderRule").asText()))
          .append("</p>");
      if (summary.hasNonNull("caveat")) {
        html.append("<p class=\"caveat\"><strong>Caveat:</strong> ")
            .append(Html.text(summary.path("caveat").asText()))
            .append("</p>");
      }
      for (JsonNode pair : summary.path("pairs")) {
        html.append("<h3>")
            .append(Html.text(pair.path("workload").asText()))
            .append(" with ")
            .append(Html.text(pair.path("driverFile").asText()))
            .append(" (")
            .append(pair.path("countedRuns").asInt())
            .append(" counted of ")
            .append(pair.path("runs").asInt())
            .append(")</h3><table><tr><th>metric</th><th>unit</th><th>estimate</th>")
            .append("<th>interval</th><th>min</th><th>max</th></tr>");
        for (Map.Entry<String, JsonNode> metric : iterable(pair.path("metrics"))) {
          JsonNode m = metric.getValue();
          String unit = m.path("unit").asText();
          html.append("<tr><th>")
              .append(Html.text(metric.getKey()))
              .append("</th><td>")
              .append(Html.text(unit))
              .append("</td>");
          if (m.has("notReported")) {
            html.append("<td colspan=\"4\">")
                .append(Html.text(m.path("notReported").asText()))
                .append("</td></tr>");
            continue;
          }
          html.append("<td>")
              .append(
                  m.has("estimate") ? Metric.format(unit, m.path("estimate").asDouble()) : "n/a")
              .append("</td><td>")
              .append(
                  m.path("interval").isObject()
                      ? String.format("%.1f%% ", m.path("interval").path("level").asDouble() * 100)
                          + Metric.format(unit, m.path("interval").path("low").asDouble())
                          + " to "
                          + Metric.format(unit, m.path("interval").path("high").asDouble())
                      : "n/a")
              .append("</td><td>")
              .append(Metric.format(unit, m.path("min").asDouble()))
              .append("</td><td>")
              .append(Metric.format(unit, m.path("max").asDouble()))
              .append("</td></tr>");
        }
        html.append("</table>");
      }
    }
    return html.toString();
  }

  private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode node) {
    return node::fields;
  }
}
