package io.plumb.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Short names for results in legends and table headers: workload and driver, plus the target rate,
 * then the message size, then the file name, only as far as needed to tell the results apart.
 */
final class Labels {
  private Labels() {}

  static List<String> of(List<ResultFile> results) {
    List<Function<ResultFile, String>> details =
        List.of(
            r -> rate(r.json().path("throughput").path("targetRateMsgPerSec").asDouble()),
            r -> r.json().path("messageSize").asInt() + " B",
            ResultFile::stem);
    List<String> labels = new ArrayList<>();
    for (ResultFile result : results) {
      labels.add(result.workload() + " · " + result.driver());
    }
    for (Function<ResultFile, String> detail : details) {
      if (new HashSet<>(labels).size() == labels.size()) {
        break;
      }
      for (int i = 0; i < results.size(); i++) {
        labels.set(i, labels.get(i) + " · " + detail.apply(results.get(i)));
      }
    }
    return labels;
  }

  static String rate(double messagesPerSecond) {
    if (messagesPerSecond >= 1e6) {
      return trim(messagesPerSecond / 1e6) + "M msg/s";
    }
    if (messagesPerSecond >= 1e3) {
      return trim(messagesPerSecond / 1e3) + "k msg/s";
    }
    return trim(messagesPerSecond) + " msg/s";
  }

  private static String trim(double value) {
    String text = String.format(Locale.ROOT, "%.2f", value);
    return text.replaceAll("\\.?0+$", "");
  }
}
