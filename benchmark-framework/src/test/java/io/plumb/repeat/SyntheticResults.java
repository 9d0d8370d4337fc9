package io.plumb.repeat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * Result JSON with figures set by the test: a recorded loopback result (the A/A fixture) as the
 * template, its throughput, latency percentiles, sample counts and CPU overwritten, so comparisons
 * read known distributions through the same fields as real results.
 */
public final class SyntheticResults {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TEMPLATE =
      "/compare/aa-loopback/a/short-loopback-loopback-run1-20261125-113248.json";

  private SyntheticResults() {}

  /**
   * A complete, clean run (nothing lost, not generator-bound) whose every figure is {@code scale}
   * times a base (publish rate 1,000 msg/s, p50 1 ms, ... p99.99 6 ms, worker CPU 0.5 cores).
   *
   * @param round orders the runs: start times one minute apart
   */
  public static ObjectNode run(int round, double rate, double latencyScale, long samples) {
    ObjectNode result = template();
    result.put("complete", true);
    result.put("generatorBound", false);
    result.putArray("generatorBoundReasons");
    ((ObjectNode) result.path("counters")).put("lost", 0);
    ObjectNode throughput = (ObjectNode) result.path("throughput");
    throughput.put("targetRateMsgPerSec", rate);
    throughput.put("publishRateMsgPerSec", rate);
    throughput.put("consumeRateMsgPerSec", rate);
    double base = 1;
    for (String family : new String[] {"publish", "endToEnd"}) {
      ObjectNode latency = (ObjectNode) result.path("latency").path(family);
      latency.put("count", samples);
      double value = base;
      for (String percentile : Metric.PERCENTILES) {
        latency.put(percentile, value * latencyScale);
        value += 1;
      }
    }
    ObjectNode worker = (ObjectNode) result.path("resources").path("summary").path("worker");
    worker.put("cpuUserCores", 0.4);
    worker.put("cpuSystemCores", 0.1);
    ((ObjectNode) result.path("phases"))
        .put(
            "startTime", Instant.parse("2026-11-26T10:00:00Z").plusSeconds(60L * round).toString());
    return result;
  }

  private static ObjectNode template() {
    try (InputStream in = SyntheticResults.class.getResourceAsStream(TEMPLATE)) {
      return (ObjectNode) JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
