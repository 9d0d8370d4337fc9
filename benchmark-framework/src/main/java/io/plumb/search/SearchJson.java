package io.plumb.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The {@code search} object of a result: how the rate was found, step by step. */
public final class SearchJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private SearchJson() {}

  /**
   * @param finalVerdict the same judge's verdict on the final measurement, or null when there was
   *     none
   */
  public static ObjectNode render(SearchResult result, StepVerdict finalVerdict) {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("goal", result.goal());
    json.put(
        "method",
        "grow x"
            + result.settings().growthFactor()
            + " from the start rate while probes are sustained, probe the first failure once more,"
            + " then bisect (geometric mean) until the lowest failed rate is within "
            + Math.round(result.settings().precision() * 100)
            + "% of the highest sustained one; each probe is a separate fixed-rate run");
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
    if (finalVerdict != null) {
      ObjectNode last = json.putObject("finalMeasurement");
      last.put("verdict", finalVerdict.kind().name().toLowerCase().replace('_', '-'));
      last.put("sustained", finalVerdict.sustained());
      last.put("reason", finalVerdict.reason());
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
      node.put("targetLatencyMs", o.latencyNanos() / 1e6);
    }
    node.put("producerThreadTimeInSendPercent", o.producerSendShare() * 100);
    node.put("verdict", verdict.kind().name().toLowerCase().replace('_', '-'));
    node.put("sustained", verdict.sustained());
    node.put("reason", verdict.reason());
    return node;
  }
}
