package io.plumb.repeat;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.stats.Histograms;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * One figure of a result that repeated runs and comparisons treat as a sample per run: read from
 * the result JSON, so a summary made during a run and a comparison of files on disk read the same
 * numbers.
 *
 * @param name as printed and as the summary JSON's key, e.g. "publish p99"
 * @param unit "msg/s", "ms" or "cores"
 * @param higherIsBetter true for rates; false for latencies and CPU
 * @param quantile for a latency percentile, e.g. 0.99; NaN for any other figure
 * @param latency for a latency percentile, the result's latency family ("publish", "endToEnd")
 */
public record Metric(
    String name,
    String unit,
    boolean higherIsBetter,
    Function<JsonNode, OptionalDouble> reader,
    double quantile,
    String latency) {

  /** The metric of a peak search's answer, in results that have one. */
  public static final String STABLE_PEAK = "stable peak";

  /** Latency percentiles across runs: p50 to p99.99. */
  static final List<String> PERCENTILES = List.of("p50", "p75", "p95", "p99", "p99.9", "p99.99");

  /**
   * Samples a run needs per 1/(1-q) for its q-percentile to be reported: 10, so the percentile has
   * at least 10 samples beyond it (p99 needs 1,000 a run, p99.99 100,000). With fewer, p99.99 is
   * the second-largest value or the largest, a sample of the run's worst moment, not a percentile.
   */
  public static final int SAMPLES_BEYOND_PERCENTILE = 10;

  public OptionalDouble read(JsonNode result) {
    return reader.apply(result);
  }

  public boolean isPercentile() {
    return !Double.isNaN(quantile);
  }

  /** The fewest samples a run must hold for this metric to be reported: 0 when not a percentile. */
  public long minSamples() {
    // The tiny subtraction keeps 10 / (1 - 0.99) = 1000.0000000000009 at 1000.
    return isPercentile() ? (long) Math.ceil(SAMPLES_BEYOND_PERCENTILE / (1 - quantile) - 1e-6) : 0;
  }

  /** How many latency samples the run's histogram of this percentile holds; empty otherwise. */
  public OptionalLong samples(JsonNode result) {
    if (!isPercentile()) {
      return OptionalLong.empty();
    }
    JsonNode count = result.path("latency").path(latency).path("count");
    return count.isNumber() ? OptionalLong.of(count.asLong()) : OptionalLong.empty();
  }

  /**
   * The relative error with which a run records this figure: a percentile read from a histogram of
   * {@link Histograms#SIGNIFICANT_DIGITS} significant digits is known to 1 part in 10^digits; rates
   * and CPU come from counts and clocks, far finer than run-to-run noise. Two runs identical to the
   * last digit still differ by up to this much in truth, so it floors every interval's spread.
   */
  public double relativeResolution() {
    return isPercentile() ? Math.pow(10, -Histograms.SIGNIFICANT_DIGITS) : 0;
  }

  /**
   * Throughput (and a peak search's stable peak), publish and end-to-end latency percentiles, then
   * the worker's and brokers' CPU.
   */
  public static List<Metric> all() {
    List<Metric> metrics = new ArrayList<>();
    metrics.add(
        new Metric(
            "publish rate",
            "msg/s",
            true,
            at("throughput", "publishRateMsgPerSec"),
            Double.NaN,
            null));
    metrics.add(
        new Metric(
            "consume rate",
            "msg/s",
            true,
            at("throughput", "consumeRateMsgPerSec"),
            Double.NaN,
            null));
    // Peak workloads only (producerRate: 0): the rate the round's search found and then held for
    // the workload's whole duration.
    metrics.add(
        new Metric(
            STABLE_PEAK, "msg/s", true, at("search", "stablePeakMsgPerSec"), Double.NaN, null));
    for (String family : List.of("publish", "endToEnd")) {
      String label = family.equals("publish") ? "publish" : "end-to-end";
      for (String percentile : PERCENTILES) {
        double quantile = Double.parseDouble(percentile.substring(1)) / 100;
        metrics.add(
            new Metric(
                label + " " + percentile,
                "ms",
                false,
                at("latency", family, percentile),
                quantile,
                family));
      }
    }
    metrics.add(new Metric("worker CPU", "cores", false, Metric::workerCores, Double.NaN, null));
    metrics.add(new Metric("broker CPU", "cores", false, Metric::brokerCores, Double.NaN, null));
    return List.copyOf(metrics);
  }

  /** The value as the console prints it in this metric's unit. */
  public String format(double value) {
    return format(unit, value);
  }

  /**
   * The value as the console prints it in {@code unit}; the report's repeat section prints the same
   * way, so a figure reads alike in both.
   */
  public static String format(String unit, double value) {
    return switch (unit) {
      case "msg/s" -> String.format("%,.0f", value);
      case "cores" -> String.format("%.2f", value);
        // Loopback latencies are microseconds: three decimals of a millisecond would print 0.000.
      default ->
          value >= 100
              ? String.format("%.1f", value)
              : value >= 0.01 ? String.format("%.3f", value) : String.format("%.6f", value);
    };
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

  /**
   * The worker JVMs' CPU: this JVM's for the in-process worker; with remote workers, theirs summed
   * (this JVM is then the coordinator, which sends nothing), and none when one went unsampled.
   */
  private static OptionalDouble workerCores(JsonNode result) {
    JsonNode remote = result.path("resources").path("remoteWorkers");
    if (!remote.isObject() || remote.isEmpty()) {
      return jvmCores(result.path("resources"));
    }
    double cores = 0;
    for (JsonNode worker : remote) {
      OptionalDouble own = jvmCores(worker);
      if (own.isEmpty()) {
        return OptionalDouble.empty();
      }
      cores += own.getAsDouble();
    }
    return OptionalDouble.of(cores);
  }

  private static OptionalDouble jvmCores(JsonNode resources) {
    JsonNode worker = resources.path("summary").path("worker");
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
