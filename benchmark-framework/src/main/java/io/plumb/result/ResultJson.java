package io.plumb.result;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.fault.FaultFailures;
import io.plumb.stats.Histograms;
import io.plumb.stats.PeriodStats;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Renders a run as JSON. The first fields are OpenMessaging Benchmark's, with its names and units
 * (latencies in milliseconds, publish delay in microseconds), so existing tooling reads Plumb
 * results; Plumb's own fields follow.
 *
 * <p>Meanings differ from OMB's in one deliberate way: {@code publishLatency*} and {@code
 * endToEndLatency*} are measured from the intended send time (no coordinated omission); the latency
 * from the actual send is {@code latency.serviceTime}.
 */
public final class ResultJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ResultJson() {}

  public static ObjectNode render(RunReport run) {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("workload", run.workload().name());
    json.put("driver", run.driverName());
    json.put("messageSize", run.workload().messageSize());
    json.put("topics", run.workload().topics());
    json.put("partitions", run.workload().partitionsPerTopic());
    json.put("producersPerTopic", run.workload().producersPerTopic());
    // OMB's name and meaning: the consumers of each subscription, whatever the subscriptions.
    json.put("consumersPerTopic", run.workload().consumerPerSubscription());
    timelines(json, run);
    aggregated(json, "PublishLatency", run.measured().publishLatency(), 1e6, false);
    aggregated(json, "PublishDelayLatency", run.measured().sendDelay(), 1e3, true);
    aggregated(json, "EndToEndLatency", run.measured().endToEndLatency(), 1e6, false);

    json.put("complete", run.complete());
    if (!run.complete()) {
      json.put("incompleteReason", run.incompleteReason());
    }
    json.put("generatorBound", !run.generatorBoundReasons().isEmpty());
    ArrayNode reasons = json.putArray("generatorBoundReasons");
    run.generatorBoundReasons().forEach(reasons::add);
    if (run.bottleneck() != null) {
      // Who limited the rate, decided as for a search probe, and the figures that decided it.
      ObjectNode bottleneck = json.putObject("bottleneck");
      bottleneck.put("verdict", run.bottleneck().kind().label());
      bottleneck.put("reason", run.bottleneck().reason());
      bottleneck.set("figures", MAPPER.valueToTree(run.bottleneck().figures()));
    }
    ObjectNode throughput = json.putObject("throughput");
    throughput.put("targetRateMsgPerSec", run.targetRate());
    throughput.put("publishRateMsgPerSec", run.publishRate());
    throughput.put(
        "publishMBPerSec", run.publishRate() * run.workload().messageSize() / (1024 * 1024));
    throughput.put("consumeRateMsgPerSec", run.consumeRate());
    throughput.put(
        "consumeMBPerSec", run.consumeRate() * run.workload().messageSize() / (1024 * 1024));
    throughput.put("producerThreadTimeInSendPercent", run.producerSendShare() * 100);
    json.set("counters", MAPPER.valueToTree(run.counters()));
    json.set("finalRead", finalRead(run.finalRead()));
    if (!run.faults().isEmpty()) {
      // One entry per planned fault: what it hit, when, and what it cost (see FaultOutcome).
      json.set("faults", MAPPER.valueToTree(run.faults()));
      // What no fault caused, so that these and the faults' figures add up to the counters.
      json.set("beforeFirstFault", MAPPER.valueToTree(run.beforeFirstFault()));
      // A fault that was not applied or not undone: the figures describe some other run.
      FaultFailures.reason(run.faults()).ifPresent(reason -> json.put("faultFailure", reason));
    }
    ArrayNode errors = json.putArray("errors");
    run.errors().forEach(errors::add);

    ObjectNode latency = json.putObject("latency");
    latency.put("unit", "milliseconds");
    latency.put("publishMeasuredFrom", "intended send time");
    latency.set("publish", family(run.measured().publishLatency()));
    latency.set("serviceTime", family(run.measured().serviceTime()));
    latency.set("sendDelay", family(run.measured().sendDelay()));
    latency.set("endToEnd", family(run.measured().endToEndLatency()));
    // Service time and send delay leave these out; their top share may read low (see the record).
    UntimedAcknowledgements untimed = UntimedAcknowledgements.of(run.measured());
    latency.put("untimedAcknowledgements", untimed.untimed());
    if (untimed.untimed() > 0) {
      latency.put("untimedFromPercentile", untimed.fromPercentile());
    }

    ObjectNode phases = json.putObject("phases");
    phases.put("warmupSeconds", run.warmupSeconds());
    phases.put("measuredSeconds", run.measuredSeconds());
    phases.put("startTime", run.startTime().toString());
    phases.put("endTime", run.endTime().toString());
    json.set("workloadConfig", run.workloadConfig());
    json.set("driverConfig", run.driverConfig());
    json.set("brokerFacts", MAPPER.valueToTree(run.brokerFacts()));
    json.set("environment", MAPPER.valueToTree(run.environment()));
    json.set("resources", run.resources().toJson());
    return json;
  }

  /**
   * Whether loss was judged against a final read, and what it found; why not when it did not run.
   */
  private static ObjectNode finalRead(FinalReadFigures read) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("ran", read.ran());
    if (read.whyNot() != null) {
      node.put("whyNot", read.whyNot());
    }
    node.put("seconds", read.seconds());
    node.put("messagesRead", read.messagesRead());
    node.put("acknowledgedFoundOnlyByRead", read.acknowledgedFoundOnlyByRead());
    node.put("acknowledgedNotInRead", read.acknowledgedNotInRead());
    node.set("endByTopic", MAPPER.valueToTree(read.endByTopic()));
    return node;
  }

  private static void timelines(ObjectNode json, RunReport run) {
    ArrayNode publishRate = json.putArray("publishRate");
    ArrayNode publishErrorRate = json.putArray("publishErrorRate");
    // Beside the attempts, what the broker acknowledged: an outage shows here, not in publishRate.
    ArrayNode acknowledgeRate = json.putArray("acknowledgeRate");
    ArrayNode consumeRate = json.putArray("consumeRate");
    ArrayNode backlog = json.putArray("backlog");
    // OMB's periods all last the same; Plumb's last one may be shorter, so timelines need lengths.
    ArrayNode periodSeconds = json.putArray("periodSeconds");
    for (PeriodSample sample : run.samples()) {
      PeriodStats stats = sample.counts();
      periodSeconds.add(sample.seconds());
      publishRate.add(stats.sent() / sample.seconds());
      publishErrorRate.add(stats.failed() / sample.seconds());
      acknowledgeRate.add(stats.acknowledged() / sample.seconds());
      consumeRate.add(stats.received() / sample.seconds());
      backlog.add(sample.backlog());
    }
    timeline(json, run, "publishLatency", PeriodStats::publishLatency, 1e6, false);
    timeline(json, run, "publishDelayLatency", PeriodStats::sendDelay, 1e3, true);
    timeline(json, run, "endToEndLatency", PeriodStats::endToEndLatency, 1e6, false);
  }

  private static void timeline(
      ObjectNode json,
      RunReport run,
      String prefix,
      Function<PeriodStats, Histogram> family,
      double divisor,
      boolean whole) {
    ArrayNode avg = json.putArray(prefix + "Avg");
    ArrayNode[] byPercentile = new ArrayNode[OMB_PERCENTILES.length];
    for (int i = 0; i < OMB_PERCENTILES.length; i++) {
      byPercentile[i] = json.putArray(prefix + OMB_SUFFIXES[i]);
    }
    ArrayNode max = json.putArray(prefix + "Max");
    for (PeriodSample sample : run.samples()) {
      Histogram histogram = family.apply(sample.stats());
      avg.add(histogram.getTotalCount() == 0 ? 0 : histogram.getMean() / divisor);
      for (int i = 0; i < OMB_PERCENTILES.length; i++) {
        addValue(byPercentile[i], valueAt(histogram, OMB_PERCENTILES[i]) / divisor, whole);
      }
      addValue(max, histogram.getTotalCount() == 0 ? 0 : histogram.getMaxValue() / divisor, whole);
    }
  }

  private static final double[] OMB_PERCENTILES = {50, 75, 95, 99, 99.9, 99.99, 99.999};
  private static final String[] OMB_SUFFIXES = {
    "50pct", "75pct", "95pct", "99pct", "999pct", "9999pct", "99999pct"
  };

  private static void aggregated(
      ObjectNode json, String family, Histogram histogram, double divisor, boolean whole) {
    json.put(
        "aggregated" + family + "Avg",
        histogram.getTotalCount() == 0 ? 0 : histogram.getMean() / divisor);
    for (int i = 0; i < OMB_PERCENTILES.length; i++) {
      putValue(
          json,
          "aggregated" + family + OMB_SUFFIXES[i],
          valueAt(histogram, OMB_PERCENTILES[i]) / divisor,
          whole);
    }
    putValue(
        json,
        "aggregated" + family + "Max",
        histogram.getTotalCount() == 0 ? 0 : histogram.getMaxValue() / divisor,
        whole);
    ObjectNode quantiles = json.putObject("aggregated" + family + "Quantiles");
    if (histogram.getTotalCount() > 0) {
      for (HistogramIterationValue value : histogram.percentiles(5)) {
        String key = Double.toString(value.getPercentileLevelIteratedTo());
        double at = value.getValueIteratedTo() / divisor;
        if (whole) {
          quantiles.put(key, Math.round(at));
        } else {
          quantiles.put(key, at);
        }
      }
    }
  }

  private static double valueAt(Histogram histogram, double percentile) {
    return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile);
  }

  private static void addValue(ArrayNode array, double value, boolean whole) {
    if (whole) {
      array.add(Math.round(value));
    } else {
      array.add(value);
    }
  }

  private static void putValue(ObjectNode json, String field, double value, boolean whole) {
    if (whole) {
      json.put(field, Math.round(value));
    } else {
      json.put(field, value);
    }
  }

  /** Count, mean, the reported percentiles, max, and the full histogram (HdrHistogram encoding). */
  private static ObjectNode family(Histogram histogram) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("count", histogram.getTotalCount());
    node.put("mean", Percentiles.meanMillis(histogram));
    for (double percentile : Percentiles.REPORTED) {
      node.put(Percentiles.label(percentile), Percentiles.millis(histogram, percentile));
    }
    node.put("max", Percentiles.maxMillis(histogram));
    node.put("histogramUnit", "nanoseconds");
    node.put("histogram", Histograms.encode(histogram));
    return node;
  }
}
