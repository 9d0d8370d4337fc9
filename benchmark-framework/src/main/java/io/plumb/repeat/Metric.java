package io.plumb.repeat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * One figure of a result that repeated runs and comparisons treat as a sample per run: read from
 * the result JSON, so a summary made during a run and a comparison of files on disk read the same
 * numbers.
 *
 * @param name as printed and as the summary JSON's key, e.g. "publish p99"
 * @param unit "msg/s", "ms" or "cores"
 * @param higherIsBetter true for rates; false for latencies and CPU
 */
public record Metric(
    String name, String unit, boolean higherIsBetter, Function<JsonNode, OptionalDouble> reader) {

  /** Latency percentiles across runs: p50 to p99.99 (beyond, a short run holds too few samples). */
  static final List<String> PERCENTILES = List.of("p50", "p75", "p95", "p99", "p99.9", "p99.99");

  public OptionalDouble read(JsonNode result) {
    return reader.apply(result);
  }

  /** Throughput, publish and end-to-end latency percentiles, then the worker's and brokers' CPU. */
  public static List<Metric> all() {
    List<Metric> metrics = new ArrayList<>();
    metrics.add(
        new Metric("publish rate", "msg/s", true, at("throughput", "publishRateMsgPerSec")));
    metrics.add(
        new Metric("consume rate", "msg/s", true, at("throughput", "consumeRateMsgPerSec")));
    for (String family : List.of("publish", "endToEnd")) {
      String label = family.equals("publish") ? "publish" : "end-to-end";
      for (String percentile : PERCENTILES) {
        metrics.add(
            new Metric(label + " " + percentile, "ms", false, at("latency", family, percentile)));
      }
    }
    metrics.add(new Metric("worker CPU", "cores", false, Metric::workerCores));
    metrics.add(new Metric("broker CPU", "cores", false, Metric::brokerCores));
    return List.copyOf(metrics);
  }

  private static Function<JsonNode, OptionalDouble> at(String... path) {
    return result -> {
      JsonNode node = result;
      for (String step : path) {
        node = node.path(step);
      }
      return node.isNumber() ? OptionalDouble.of(node.asDouble()) : OptionalDouble.empty();
    };
  }

  private static OptionalDouble workerCores(JsonNode result) {
    JsonNode worker = result.path("resources").path("summary").path("worker");
    if (!worker.path("cpuUserCores").isNumber()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(
        worker.path("cpuUserCores").asDouble() + worker.path("cpuSystemCores").asDouble());
  }

  /** All local broker processes together (a cluster's nodes share the host's cores). */
  private static OptionalDouble brokerCores(JsonNode result) {
    JsonNode brokers = result.path("resources").path("summary").path("brokers");
    if (brokers.isEmpty()) {
      return OptionalDouble.empty();
    }
    double cores = 0;
    for (JsonNode broker : brokers) {
      cores += broker.path("cpuCores").asDouble();
    }
    return OptionalDouble.of(cores);
  }
}
