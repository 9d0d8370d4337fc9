package io.plumb.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The {@code search} object of a result: how the rate was found, step by step. */
public final class SearchJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private SearchJson() {}

  /**
   * @param finalMeasurements the full-duration measurements after the search, in order (the rate
   *     found, then lower ones while a measurement failed); empty when there were none
   */
  public static ObjectNode render(SearchResult result, List<FinalMeasurement> finalMeasurements) {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("goal", result.goal());
    json.put(
        "method",
        "grow x"
            + result.settings().growthFactor()
            + " from the start rate while probes are sustained, probe the first failure once more,"
            + " then bisect (geometric mean) until the lowest failed rate is within "
            + Math.round(result.settings().precision() * 100)
            + "% of the highest sustained one, and probe that rate once more unless it passed"
            + " twice already (the answer must pass every time it is probed; a failed recheck"
            + " continues the search below it); each probe is a separate fixed-rate run. Then one"
            + " measurement at the rate found for the workload's full duration; if it is not"
            + " sustained, step down by the same precision and measure again, at most "
            + FinalMeasurement.MAX_ATTEMPTS
            + " measurements in all");
    json.put("complete", result.complete());
    if (!result.complete()) {
      json.put("incompleteReason", result.incompleteReason());
    }
    if (result.foundRate().isPresent()) {
      json.put("foundRateMsgPerSec", result.foundRate().get());
    } else {
      json.putNull("foundRateMsgPerSec");
    }
    if (result.lowestFailedRate().isPresent()) {
      json.put("lowestFailedRateMsgPerSec", result.lowestFailedRate().get());
    } else {
      json.putNull("lowestFailedRateMsgPerSec");
    }
    json.put("limitedBy", result.limitedBy());
    json.put("generatorBound", result.limitedBy().equals("generator"));
    json.put("conclusion", result.conclusion());
    result.clientWindows().ifPresent(windows -> json.put("clientWindows", windows));
    json.put("searchSeconds", result.seconds());
    ObjectNode settings = json.putObject("settings");
    settings.put("startRateMsgPerSec", result.settings().startRate());
    settings.put("growthFactor", result.settings().growthFactor());
    settings.put("precision", result.settings().precision());
    settings.put("minRateMsgPerSec", result.settings().minRate());
    settings.put("maxRateMsgPerSec", result.settings().maxRate());
    settings.put("probeWarmupSeconds", result.settings().probeWarmup().toMillis() / 1e3);
    settings.put("probeSeconds", result.settings().probeDuration().toMillis() / 1e3);
    ArrayNode steps = json.putArray("steps");
    for (SearchStep step : result.steps()) {
      ObjectNode node = step(step.outcome(), step.verdict());
      node.put("index", step.index());
      node.put("stage", step.stage());
      steps.add(node);
    }
    if (!finalMeasurements.isEmpty()) {
      FinalMeasurement last = finalMeasurements.get(finalMeasurements.size() - 1);
      if (last.verdict().sustained()) {
        json.put("stablePeakMsgPerSec", last.rate());
      } else {
        json.putNull("stablePeakMsgPerSec");
      }
      json.set("finalMeasurement", verdict(last.verdict()).put("rateMsgPerSec", last.rate()));
      ArrayNode attempts = json.putArray("finalMeasurements");
      for (FinalMeasurement attempt : finalMeasurements) {
        attempts.add(step(attempt.outcome(), attempt.verdict()));
      }
    }
    return json;
  }

  private static ObjectNode step(ProbeOutcome o, StepVerdict verdict) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("targetRateMsgPerSec", o.targetRate());
    node.put("measuredSeconds", o.seconds());
    node.put("wallSeconds", o.resultTimeSeconds());
    node.put("publishRateMsgPerSec", o.publishRate());
    node.put("acknowledgeRateMsgPerSec", o.acknowledgeRate());
    node.put("consumeRateMsgPerSec", o.consumeRate());
    node.put("backlogTrendMsgPerSec", o.backlogSlope());
    node.put("unacknowledgedTrendMsgPerSec", o.unacknowledgedSlope());
    node.put("backlogAtEnd", o.backlogAtEnd());
    node.put("scheduleLagAtEnd", o.scheduleLagAtEnd());
    node.put("sendDelayP50Ms", o.sendDelayP50Nanos() / 1e6);
    node.put("sendDelayP99Ms", o.sendDelayP99Nanos() / 1e6);
    if (o.latencyNanos() >= 0) {
      // The latency the goal names (its percentile, publish or end-to-end) as this step measured
      // it; the goal's own bound is the search's "goal".
      node.put("measuredLatencyMs", o.latencyNanos() / 1e6);
    }
    node.put("producerThreadTimeInSendPercent", o.producerThreads().sendShare() * 100);
    node.put("publishLatencySpreadMs", o.latencySpread().publishNanos() / 1e6);
    node.put("endToEndLatencySpreadMs", o.latencySpread().endToEndNanos() / 1e6);
    node.setAll(verdict(verdict));
    return node;
  }

  private static ObjectNode verdict(StepVerdict verdict) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("verdict", verdict.label());
    node.put("sustained", verdict.sustained());
    node.put("reason", verdict.reason());
    return node;
  }
}
