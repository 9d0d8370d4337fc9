package io.plumb.resources;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Resources over a run's measured phase: one sample per period (the timelines) and one over the
 * whole phase (the summary), with the peaks of heap, resident memory and load.
 *
 * @param scope whose CPU "worker" means: this JVM, which runs the in-process worker
 * @param cores the host's logical processors, so CPU in cores reads as a share of the host
 * @param whole from the start of the measured phase to its last period; null when nothing was
 *     sampled
 */
public record ResourceReport(
    String scope,
    int cores,
    List<ResourceSample> periods,
    ResourceSample whole,
    long heapUsedMaxBytes,
    double loadAverageMax,
    Map<String, Long> brokerResidentMaxBytes) {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final double MB = 1024 * 1024;

  public static final ResourceReport NONE =
      new ResourceReport("not sampled", 0, List.of(), null, 0, -1, Map.of());

  public ResourceReport {
    periods = List.copyOf(periods);
    brokerResidentMaxBytes = Map.copyOf(brokerResidentMaxBytes);
  }

  public boolean sampled() {
    return whole != null;
  }

  /** The worker JVM's CPU over the measured phase as a share of all the host's cores, or NaN. */
  public double workerShareOfHost() {
    return sampled() && cores > 0 ? whole.workerCores() / cores : Double.NaN;
  }

  public double stealShare() {
    return sampled() ? whole.stealShare() : Double.NaN;
  }

  public ObjectNode toJson() {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("workerScope", scope);
    json.put("hostCores", cores);
    json.put("cpuUnit", "cores (1.0 = one core busy all the time)");
    if (!sampled()) {
      return json;
    }
    ObjectNode summary = json.putObject("summary");
    ObjectNode worker = summary.putObject("worker");
    worker.put("cpuUserCores", round(whole.workerUserCores()));
    worker.put("cpuSystemCores", round(whole.workerSystemCores()));
    worker.put("cpuPercentOfHost", round(100 * workerShareOfHost()));
    worker.put("gcCount", whole.gcCount());
    worker.put("gcMillis", whole.gcMillis());
    worker.put("gcLongestPauseMillis", whole.gcLongestPauseMillis());
    worker.put("gcPercentOfTime", round(100 * whole.gcMillis() / 1e3 / whole.seconds()));
    worker.put("heapUsedMaxMB", round(heapUsedMaxBytes / MB));
    ObjectNode host = summary.putObject("host");
    host.put("stealPercent", round(100 * whole.stealShare()));
    host.put("loadAverage1mMax", round(loadAverageMax));
    ObjectNode brokers = summary.putObject("brokers");
    whole
        .brokers()
        .forEach(
            (label, b) -> {
              ObjectNode node = brokers.putObject(label);
              node.put("cpuCores", round(b.cpuCores()));
              node.put(
                  "residentMaxMB",
                  round(brokerResidentMaxBytes.getOrDefault(label, b.residentBytes()) / MB));
              node.put("diskWrittenMB", round(b.bytesWritten() / MB));
              node.put("diskWriteMBPerSec", round(b.bytesWritten() / MB / whole.seconds()));
            });
    // Timelines, one entry per measured period, beside publishRate and the latency timelines.
    ArrayNode timeline = json.putArray("periods");
    for (ResourceSample sample : periods) {
      ObjectNode period = timeline.addObject();
      period.put("seconds", round(sample.seconds()));
      period.put("workerCpuUserCores", round(sample.workerUserCores()));
      period.put("workerCpuSystemCores", round(sample.workerSystemCores()));
      period.put("gcCount", sample.gcCount());
      period.put("gcMillis", sample.gcMillis());
      period.put("gcLongestPauseMillis", sample.gcLongestPauseMillis());
      period.put("heapUsedMB", round(sample.heapUsedBytes() / MB));
      period.put("stealPercent", round(100 * sample.stealShare()));
      period.put("loadAverage1m", round(sample.loadAverage()));
      ObjectNode perBroker = period.putObject("brokers");
      sample
          .brokers()
          .forEach(
              (label, b) -> {
                ObjectNode node = perBroker.putObject(label);
                node.put("cpuCores", round(b.cpuCores()));
                node.put("residentMB", round(b.residentBytes() / MB));
                node.put("diskWriteMBPerSec", round(b.bytesWritten() / MB / sample.seconds()));
              });
    }
    return json;
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
