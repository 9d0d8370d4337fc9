package io.plumb.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The settings whose values differ between results: workload fields ({@code workload.*}) and driver
 * settings ({@code driver.*}), flattened to dotted keys, so a reader sees at once what was varied
 * (acks, fsync, rate, message size) without reading two configs side by side.
 */
public final class ConfigDifferences {
  /** Shown for a setting a result does not have. */
  static final String ABSENT = "—";

  private ConfigDifferences() {}

  /** Differing key to its value in each result, in the order the keys first appear. */
  public static Map<String, List<String>> of(List<ResultFile> results) {
    List<Map<String, String>> flattened = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>();
    for (ResultFile result : results) {
      Map<String, String> settings = new LinkedHashMap<>();
      flatten("workload", result.json().path("workloadConfig"), settings);
      flatten("driver", result.json().path("driverConfig"), settings);
      flattened.add(settings);
      keys.addAll(settings.keySet());
    }
    Map<String, List<String>> differences = new LinkedHashMap<>();
    if (results.size() < 2) {
      return differences;
    }
    for (String key : keys) {
      List<String> values = new ArrayList<>();
      for (Map<String, String> settings : flattened) {
        values.add(settings.getOrDefault(key, ABSENT));
      }
      if (new HashSet<>(values).size() > 1) {
        differences.put(key, values);
      }
    }
    return differences;
  }

  private static void flatten(String prefix, JsonNode node, Map<String, String> into) {
    if (node.isObject()) {
      node.fields().forEachRemaining(f -> flatten(prefix + "." + f.getKey(), f.getValue(), into));
    } else if (node.isArray()) {
      List<String> items = new ArrayList<>();
      node.forEach(item -> items.add(item.isValueNode() ? item.asText() : item.toString()));
      into.put(prefix, String.join(", ", items));
    } else if (!node.isMissingNode()) {
      into.put(prefix, node.isNull() ? "null" : node.asText());
    }
  }
}
