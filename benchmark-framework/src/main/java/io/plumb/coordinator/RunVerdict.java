package io.plumb.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.plumb.bottleneck.ScheduleEvidence;
import io.plumb.bottleneck.ThreadEvidence;
import io.plumb.fault.FaultFigures;
import io.plumb.resources.ResourceReport;
import io.plumb.result.Counters;
import io.plumb.result.FinalReadFigures;
import io.plumb.result.RunReport;
import io.plumb.workload.Workload;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The run's last step: judges whether the generator kept its schedule and assembles the report from
 * everything the other steps left in the run's context, with the workload and driver files as they
 * were read (secrets masked).
 */
final class RunVerdict {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final YAMLMapper YAML = new YAMLMapper();

  private RunVerdict() {}

  static RunReport report(
      RunContext run,
      Counters counters,
      String failure,
      FaultFigures faults,
      FinalReadFigures finalRead,
      ResourceSteps resourceSteps) {
    Workload workload = run.workload();
    Measurement measurement = run.measurement();
    double measured = measurement.measuredSeconds();
    // Shares of the producer threads' own wall time, each thread measured on the host that ran it.
    ThreadEvidence threads = measurement.measuredProducerThreads();
    double sendShare = threads.sendShare();
    ResourceReport resources = resourceSteps.report();
    GeneratorVerdict verdict =
        measured > 0 && !workload.consumerOnly()
            ? GeneratorVerdict.judge(
                new ScheduleEvidence(
                    workload.producerRate(),
                    measurement.measuredSent() / measured,
                    measurement.measuredAcknowledged() / measured,
                    resourceSteps.lagAtEnd(),
                    percentile(measurement.measured().sendDelay(), 50),
                    percentile(measurement.measured().sendDelay(), 99),
                    threads,
                    resources.workerShareOfHost(),
                    resources.stealShare()),
                percentile(measurement.measured().publishLatency(), 99))
            : GeneratorVerdict.NOT_JUDGED;
    return new RunReport(
        workload,
        run.findings().driverName(),
        workload.producerRate(),
        workload.warmupDuration().toNanos() / 1e9,
        measured,
        List.copyOf(measurement.samples()),
        measurement.measured(),
        counters,
        verdict.reasons(),
        sendShare,
        failure,
        List.copyOf(run.errors()),
        workloadConfig(workload),
        driverConfig(run),
        run.findings().brokerFacts(),
        environment(run),
        run.start(),
        Instant.now(),
        faults.faults(),
        verdict.bottleneck(),
        resources,
        faults.beforeFirstFault(),
        finalRead);
  }

  private static long percentile(Histogram histogram, double percentile) {
    return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile);
  }

  private static Map<String, Object> environment(RunContext run) {
    Map<String, Object> environment =
        new LinkedHashMap<>(Environment.describe(run.options().pacing()));
    environment.put("setup", run.setupFigures().describe());
    return environment;
  }

  private static JsonNode workloadConfig(Workload workload) {
    ObjectNode node = JSON.valueToTree(Map.of());
    try {
      node = (ObjectNode) YAML.readTree(workload.file().toFile());
    } catch (IOException | ClassCastException e) {
      node.put("file", workload.file().toString());
    }
    node.put("effectiveTestDurationSeconds", RunContext.seconds(workload.testDuration()));
    node.put("effectiveWarmupDurationSeconds", RunContext.seconds(workload.warmupDuration()));
    return node;
  }

  private static JsonNode driverConfig(RunContext run) {
    ObjectNode node = JSON.createObjectNode();
    node.put("file", run.driverFile().toString());
    try {
      node.set("contents", Secrets.maskTree(YAML.readTree(run.driverFile().toFile())));
    } catch (IOException e) {
      node.put("contents", "unreadable: " + e.getMessage());
    }
    ObjectNode overrides = node.putObject("overrides");
    run.options()
        .driverOverrides()
        .forEach((key, value) -> overrides.put(key, Secrets.mask(key, value)));
    return node;
  }
}
