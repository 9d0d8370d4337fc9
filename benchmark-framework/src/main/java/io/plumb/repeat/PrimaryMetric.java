package io.plumb.repeat;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.input.BadInputException;
import java.util.List;
import java.util.Locale;

/**
 * The metric a comparison's headline verdict is about ({@code --primary}): tested alone at the
 * interval's level, while the other metrics share a family-wise error budget (Holm).
 *
 * <p>Without {@code --primary}: when every run searched for its peak ({@code producerRate: 0}), the
 * stable peak; when every run kept a fixed target rate (publish rate within 2% of it), the rate is
 * the workload's, not the configuration's, so the primary is the end-to-end p99 (publish p99
 * without consumers); otherwise the runs pushed what they could and the primary is the publish
 * rate.
 *
 * @param choice the option as given, lower case; null for the default
 */
public record PrimaryMetric(String choice) {
  static final String SHORT_NAMES = "throughput, peak, p50, p75, p95, p99, p99.9, p99.99";

  /** Checks the option before any run starts; one line naming what is allowed otherwise. */
  public static PrimaryMetric parse(String option) {
    if (option == null) {
      return new PrimaryMetric(null);
    }
    String choice = option.trim().toLowerCase(Locale.ROOT);
    boolean known =
        choice.equals("throughput")
            || choice.equals("peak")
            || Metric.PERCENTILES.contains(choice)
            || Metric.all().stream().anyMatch(m -> m.name().equalsIgnoreCase(choice));
    if (!known) {
      throw new BadInputException(
          "--primary: expected "
              + SHORT_NAMES
              + " or a metric's full name (publish p99, end-to-end p99, consume rate, worker CPU,"
              + " broker CPU), got '"
              + option
              + "'");
    }
    return new PrimaryMetric(choice);
  }

  /** The metric, with the reason it was chosen, for the runs at hand. */
  public Chosen resolve(List<JsonNode> runs) {
    boolean consumers =
        !runs.isEmpty()
            && runs.stream()
                .allMatch(r -> r.path("latency").path("endToEnd").path("count").asLong() > 0);
    String latency = consumers ? "end-to-end " : "publish ";
    if (choice == null) {
      boolean searched =
          !runs.isEmpty() && runs.stream().allMatch(r -> r.path("search").isObject());
      if (searched) {
        return new Chosen(
            named(Metric.STABLE_PEAK),
            "default: every run searched for its peak, so the stable peak is what differs");
      }
      boolean keptRate =
          !runs.isEmpty()
              && runs.stream()
                  .allMatch(
                      r -> {
                        double target = r.path("throughput").path("targetRateMsgPerSec").asDouble();
                        double rate = r.path("throughput").path("publishRateMsgPerSec").asDouble();
                        return target > 0 && rate >= 0.98 * target;
                      });
      return keptRate
          ? new Chosen(
              named(latency + "p99"),
              "default: every run kept its fixed target rate, so latency is what differs")
          : new Chosen(
              named("publish rate"),
              "default: the runs did not all keep a fixed target rate, so the rate is what differs");
    }
    if (choice.equals("throughput")) {
      return new Chosen(named("publish rate"), "--primary throughput");
    }
    if (choice.equals("peak")) {
      return new Chosen(named(Metric.STABLE_PEAK), "--primary peak");
    }
    if (Metric.PERCENTILES.contains(choice)) {
      return new Chosen(named(latency + choice), "--primary " + choice);
    }
    return new Chosen(named(choice), "--primary " + choice);
  }

  /** The primary metric and why it is the one. */
  public record Chosen(Metric metric, String reason) {}

  private static Metric named(String name) {
    return Metric.all().stream()
        .filter(m -> m.name().equalsIgnoreCase(name))
        .findFirst()
        .orElseThrow();
  }
}
