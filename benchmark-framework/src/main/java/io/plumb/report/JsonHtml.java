package io.plumb.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Any JSON value as readable HTML: objects as key/value tables, arrays of objects (search steps,
 * say) as one table with a column per key, other arrays as lists. The report uses it for sections
 * whose shape it does not dictate, such as a peak or SLO search.
 */
final class JsonHtml {
  private JsonHtml() {}

  static String render(JsonNode node) {
    StringBuilder html = new StringBuilder();
    render(node, html);
    return html.toString();
  }

  private static void render(JsonNode node, StringBuilder html) {
    if (node.isObject()) {
      html.append("<table class=\"kv\">");
      node.fields()
          .forEachRemaining(
              field -> {
                html.append("<tr><th>").append(Html.text(field.getKey())).append("</th><td>");
                render(field.getValue(), html);
                html.append("</td></tr>");
              });
      html.append("</table>");
    } else if (node.isArray() && node.size() > 0 && allObjects(node)) {
      Set<String> columns = new LinkedHashSet<>();
      node.forEach(row -> row.fieldNames().forEachRemaining(columns::add));
      html.append("<table class=\"rows\"><tr>");
      columns.forEach(c -> html.append("<th>").append(Html.text(c)).append("</th>"));
      html.append("</tr>");
      for (JsonNode row : node) {
        html.append("<tr>");
        for (String column : columns) {
          html.append("<td>");
          if (row.has(column)) {
            render(row.get(column), html);
          }
          html.append("</td>");
        }
        html.append("</tr>");
      }
      html.append("</table>");
    } else if (node.isArray()) {
      StringBuilder items = new StringBuilder();
      for (JsonNode item : node) {
        if (items.length() > 0) {
          items.append(", ");
        }
        StringBuilder one = new StringBuilder();
        render(item, one);
        items.append(one);
      }
      html.append(items);
    } else {
      html.append(Html.text(scalar(node)));
    }
  }

  private static boolean allObjects(JsonNode array) {
    for (JsonNode item : array) {
      if (!item.isObject()) {
        return false;
      }
    }
    return true;
  }

  /** Numbers readable at a glance: whole numbers with separators, others to four figures. */
  static String scalar(JsonNode node) {
    if (node.isIntegralNumber()) {
      return String.format(Locale.ROOT, "%,d", node.asLong());
    }
    if (node.isNumber()) {
      double value = node.asDouble();
      if (value == Math.rint(value) && Math.abs(value) < 1e15) {
        return String.format(Locale.ROOT, "%,.0f", value);
      }
      return Math.abs(value) >= 1000
          ? String.format(Locale.ROOT, "%,.1f", value)
          : String.format(Locale.ROOT, "%.4g", value);
    }
    return node.isNull() ? "null" : node.asText();
  }
}
