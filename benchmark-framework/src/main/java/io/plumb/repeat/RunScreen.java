package io.plumb.repeat;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.bottleneck.BottleneckVerdict;
import java.util.Optional;

/**
 * Which runs a comparison or summary leaves out by default, and why: a run cut short, one that lost
 * messages, or one whose generator could not keep its schedule measured something other than the
 * configuration it names (a lossy run's latencies lack the messages that were lost, as do those of
 * a run whose drain ended with messages still in flight, or of one whose broker refused sends
 * without a fault to explain it; a generator-bound run's latencies are partly the load
 * generator's), as may one whose bottleneck verdict was undecided, or one whose fault (--faults)
 * was not applied or not undone; and a peak search whose peak was the generator's or that held no
 * rate for the full duration. {@code --include-all} keeps them.
 */
public final class RunScreen {
  private RunScreen() {}

  /** Why the run is left out, in a few words; empty when it counts. */
  public static Optional<String> reasonToLeaveOut(JsonNode result) {
    if (!result.path("complete").asBoolean(false)) {
      String why = result.path("incompleteReason").asText("");
      return Optional.of("incomplete" + (why.isEmpty() ? "" : " (" + why + ")"));
    }
    // A fault of --faults that was not applied or not undone leaves a complete run that measured
    // some other run (one without the fault): counted, it would flatter its side.
    String faultFailure = result.path("faultFailure").asText("");
    if (!faultFailure.isEmpty()) {
      return Optional.of("fault failed (" + faultFailure + ")");
    }
    long lost = result.path("counters").path("lost").asLong(0);
    if (lost > 0) {
      return Optional.of(String.format("lost %,d message(s)", lost));
    }
    // Sends the broker refused are in neither the latencies nor the throughput: a configuration
    // that refuses part of its load reads faster for it. Under a fault (--faults) some sends are
    // expected to fail, and the comparison is of what the faults cost, so those runs count.
    long failed = result.path("counters").path("failed").asLong(0);
    if (failed > 0 && !result.path("faults").isArray()) {
      return Optional.of(String.format("%,d send(s) failed", failed));
    }
    // Late rather than lost, but just as absent from the end-to-end latencies, and the latest of
    // all: the run's percentiles read low, which a comparison would credit to its configuration.
    long inFlight = result.path("counters").path("inFlight").asLong(0);
    if (inFlight > 0) {
      return Optional.of(
          String.format("%,d message(s) still in flight when the drain ended", inFlight));
    }
    JsonNode search = result.path("search");
    if (search.isObject()) {
      // A round of a peak workload: its figure is the peak it held, and only a broker's peak.
      if (search.path("generatorBound").asBoolean(false)) {
        return Optional.of("generator-bound peak (" + search.path("conclusion").asText() + ")");
      }
      if (!search.path("stablePeakMsgPerSec").isNumber()) {
        return Optional.of("no stable peak: no rate found held for the full duration");
      }
      // The search's limit may be the broker's while its full-duration measurement at the rate
      // found was the generator's: the peak held after stepping down is then this host's.
      for (JsonNode attempt : search.path("finalMeasurements")) {
        if ("generator-bound".equals(attempt.path("verdict").asText())) { // StepVerdict's label
          return Optional.of(
              String.format(
                  "generator-bound peak (the full-duration measurement at %,.0f msg/s: %s)",
                  attempt.path("targetRateMsgPerSec").asDouble(), attempt.path("reason").asText()));
        }
      }
    }
    if (result.path("generatorBound").asBoolean(false)) {
      JsonNode reasons = result.path("generatorBoundReasons");
      String why = reasons.isArray() && !reasons.isEmpty() ? reasons.get(0).asText() : "";
      return Optional.of("generator-bound" + (why.isEmpty() ? "" : " (" + why + ")"));
    }
    // Producers behind, or late, with evidence that points both ways: the figures may be partly
    // the generator's, which a comparison would credit to the configuration. (A peak round is
    // judged by its search above.)
    JsonNode bottleneck = result.path("bottleneck");
    if (!search.isObject()
        && BottleneckVerdict.Kind.UNDECIDED.label().equals(bottleneck.path("verdict").asText())) {
      String why = bottleneck.path("reason").asText("");
      return Optional.of(
          "undecided whether the generator limited it" + (why.isEmpty() ? "" : " (" + why + ")"));
    }
    return Optional.empty();
  }
}
