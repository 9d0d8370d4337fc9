package io.plumb.resources;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Resources over a run's measured phase: one sample per period (the timelines) and one over the
 * whole phase (the summary), with the peaks of heap, resident memory and load.
 *
 * @param scope whose CPU "worker" means: this JVM, which runs the in-process worker, or the
 *     coordinator's JVM when the workers are remote
 * @param cores the host's logical processors, so CPU in cores reads as a share of the host
 * @param whole from the start of the measured phase to its last period; null when nothing was
 *     sampled
 * @param remoteWorkers each remote worker's JVM and host, by the worker's URL, sampled like this
 *     JVM; empty for the in-process worker
 */
public record ResourceReport(
    String scope,
    int cores,
    List<ResourceSample> periods,
    ResourceSample whole,
    long heapUsedMaxBytes,
    double loadAverageMax,
    Map<String, Long> brokerResidentMaxBytes,
    Map<String, ResourceReport> remoteWorkers) {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final double MB = 1024 * 1024;

  public static final ResourceReport NONE =
      new ResourceReport("not sampled", 0, List.of(), null, 0, -1, Map.of(), Map.of());

  public ResourceReport {
    periods = List.copyOf(periods);
    brokerResidentMaxBytes = Map.copyOf(brokerResidentMaxBytes);
    // Kept in the order the workers were listed, as every other per-worker figure is.
    remoteWorkers = Collections.unmodifiableMap(new LinkedHashMap<>(remoteWorkers));
  }

  /** The same figures with each remote worker's beside them. */
  public ResourceReport withRemoteWorkers(Map<String, ResourceReport> workers) {
    return new ResourceReport(
        scope,
        cores,
        periods,
        whole,
        heapUsedMaxBytes,
        loadAverageMax,
        brokerResidentMaxBytes,
        workers);
  }

  public boolean sampled() {
    return whole != null;
  }

  /**
   * The longest a producer thread waited for a core at once, in ms, in this JVM or any remote
   * worker (0 where none was sampled): a send delay no longer than that can be the host's
   * scheduling alone.
   */
  public double producerLongestCoreWaitMillis() {
    double own = sampled() ? whole.producerLongestCoreWaitMillis() : 0;
    return remoteWorkers.isEmpty()
        ? own
        : Math.max(own, busiest(ResourceReport::producerLongestCoreWaitMillis));
  }

  /** This JVM's CPU over the measured phase as a share of all its host's cores, or NaN. */
  public double jvmShareOfHost() {
    return sampled() && cores > 0 ? whole.workerCores() / cores : Double.NaN;
  }

  /**
   * The worker JVM's share of its host ({@link #jvmShareOfHost}); with remote workers, the busiest
   * worker's, since the one that runs out of CPU first limits the generator.
   */
  public double workerShareOfHost() {
    return remoteWorkers.isEmpty() ? jvmShareOfHost() : busiest(ResourceReport::jvmShareOfHost);
  }

  /** The host's steal share, or NaN; with remote workers, the highest of their hosts'. */
  public double stealShare() {
    if (!remoteWorkers.isEmpty()) {
      return busiest(ResourceReport::stealShare);
    }
    return sampled() ? whole.stealShare() : Double.NaN;
  }

  /** The highest figure among the remote workers that have one, or NaN when none has. */
  private double busiest(ToDoubleFunction<ResourceReport> figure) {
    double max = Double.NaN;
    for (ResourceReport worker : remoteWorkers.values()) {
      double value = figure.applyAsDouble(worker);
      if (Double.isNaN(max) || value > max) {
        max = value;
      }
    }
    return max;
  }

  public ObjectNode toJson() {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("workerScope", scope);
    json.put("hostCores", cores);
    json.put("cpuUnit", "cores (1.0 = one core busy all the time)");
    if (!remoteWorkers.isEmpty()) {
      ObjectNode workers = json.putObject("remoteWorkers");
      remoteWorkers.forEach((url, worker) -> workers.set(url, worker.toJson()));
    }
    if (!sampled()) {
      return json;
    }
    ObjectNode summary = json.putObject("summary");
    ObjectNode worker = summary.putObject("worker");
    worker.put("cpuUserCores", round(whole.workerUserCores()));
    worker.put("cpuSystemCores", round(whole.workerSystemCores()));
    worker.put("cpuPercentOfHost", round(100 * jvmShareOfHost()));
    worker.put("gcSource", whole.gcSource());
    worker.put("gcCount", whole.gcCount());
    worker.put("gcMillis", round(whole.gcMillis()));
    worker.put("gcLongestPauseMillis", round(whole.gcLongestPauseMillis()));
    ObjectNode kinds = worker.putObject("gcPausesByKind");
    whole.gcPausesByKind().forEach(kinds::put);
    worker.put("gcPercentOfTime", round(100 * whole.gcMillis() / 1e3 / whole.seconds()));
    worker.put("heapUsedMaxMB", round(heapUsedMaxBytes / MB));
    worker.put("producerLongestCoreWaitMillis", round(whole.producerLongestCoreWaitMillis()));
    ObjectNode host = summary.putObject("host");
    host.put("stealPercent", round(100 * whole.stealShare()));
    host.put("loadAverage1mMax", round(loadAverageMax));
    host.put("stallThresholdMillis", HostStalls.STALL_NANOS / 1e6);
    host.put("stalls", whole.hostStalls());
    host.put("stallMillis", round(whole.hostStallMillis()));
    host.put("longestStallMillis", round(whole.hostLongestStallMillis()));
    ObjectNode brokers = summary.putObject("brokers");
    whole
        .brokers()
        .forEach(
            (label, b) ->
                broker(
                        brokers,
                        label,
                        b,
                        "residentMaxMB",
                        brokerResidentMaxBytes.getOrDefault(label, b.residentBytes()))
                    .put("diskWrittenMB", round(b.bytesWritten() / MB))
                    .put("diskWriteMBPerSec", round(b.bytesWritten() / MB / whole.seconds())));
    // Timelines, one entry per measured period, beside publishRate and the latency timelines.
    ArrayNode timeline = json.putArray("periods");
    for (ResourceSample sample : periods) {
      ObjectNode period = timeline.addObject();
      period.put("seconds", round(sample.seconds()));
      period.put("workerCpuUserCores", round(sample.workerUserCores()));
      period.put("workerCpuSystemCores", round(sample.workerSystemCores()));
      period.put("gcCount", sample.gcCount());
      period.put("gcMillis", round(sample.gcMillis()));
      period.put("gcLongestPauseMillis", round(sample.gcLongestPauseMillis()));
      period.put("heapUsedMB", round(sample.heapUsedBytes() / MB));
      period.put("stealPercent", round(100 * sample.stealShare()));
      period.put("loadAverage1m", round(sample.loadAverage()));
      period.put("hostStalls", sample.hostStalls());
      period.put("hostLongestStallMillis", round(sample.hostLongestStallMillis()));
      period.put("producerLongestCoreWaitMillis", round(sample.producerLongestCoreWaitMillis()));
      ObjectNode perBroker = period.putObject("brokers");
      sample
          .brokers()
          .forEach(
              (label, b) ->
                  broker(perBroker, label, b, "residentMB", b.residentBytes())
                      .put("diskWriteMBPerSec", round(b.bytesWritten() / MB / sample.seconds())));
    }
    return json;
  }

  /**
   * A broker's entry: its CPU, then its resident memory under RESIDENT_KEY; the caller adds the
   * rest.
   */
  private static ObjectNode broker(
      ObjectNode parent,
      String label,
      ResourceSample.Broker broker,
      String residentKey,
      long residentBytes) {
    return parent
        .putObject(label)
        .put("cpuCores", round(broker.cpuCores()))
        .put(residentKey, round(residentBytes / MB));
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
