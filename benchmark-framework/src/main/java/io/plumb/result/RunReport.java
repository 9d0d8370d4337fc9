package io.plumb.result;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.bottleneck.BottleneckVerdict;
import io.plumb.fault.BeforeFirstFault;
import io.plumb.fault.FaultOutcome;
import io.plumb.resources.ResourceReport;
import io.plumb.stats.PeriodStats;
import io.plumb.workload.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything a finished (or interrupted) run produced, before it is rendered as JSON or text.
 *
 * @param measured the measured phase plus the drain's deliveries, merged losslessly
 * @param incompleteReason why the run stopped early, or null when it completed
 * @param generatorBoundReasons why the generator rather than the broker limited the run; empty if
 *     not
 * @param faults what each fault of the plan did to the run; empty without a fault plan
 * @param bottleneck who limited the rate, with the figures that decided it; null when nothing was
 *     judged (consumer-only runs, nothing measured)
 * @param resources the worker JVM's, the host's and the local brokers' resources while measuring
 * @param beforeFirstFault what no fault caused: failures, losses and duplicates before the first
 *     fault's window; {@link BeforeFirstFault#NOTHING} without a fault plan
 * @param finalRead the read of every topic to its end after the run, against which loss was judged
 *     when it ran
 */
public record RunReport(
    Workload workload,
    String driverName,
    double targetRate,
    double warmupSeconds,
    double measuredSeconds,
    List<PeriodSample> samples,
    PeriodStats measured,
    Counters counters,
    List<String> generatorBoundReasons,
    double producerSendShare,
    String incompleteReason,
    List<String> errors,
    JsonNode workloadConfig,
    JsonNode driverConfig,
    Map<String, String> brokerFacts,
    Map<String, Object> environment,
    Instant startTime,
    Instant endTime,
    List<FaultOutcome> faults,
    BottleneckVerdict bottleneck,
    ResourceReport resources,
    BeforeFirstFault beforeFirstFault,
    FinalReadFigures finalRead) {

  public RunReport {
    faults = List.copyOf(faults);
    beforeFirstFault = beforeFirstFault == null ? BeforeFirstFault.NOTHING : beforeFirstFault;
    resources = resources == null ? ResourceReport.NONE : resources;
    finalRead = finalRead == null ? FinalReadFigures.NOT_ASKED : finalRead;
  }

  public boolean complete() {
    return incompleteReason == null;
  }

  public double publishRate() {
    return measuredSeconds > 0 ? sumSent() / measuredSeconds : 0;
  }

  public double consumeRate() {
    double received = 0;
    for (PeriodSample sample : samples) {
      received += sample.counts().received();
    }
    return measuredSeconds > 0 ? received / measuredSeconds : 0;
  }

  private double sumSent() {
    double sent = 0;
    for (PeriodSample sample : samples) {
      sent += sample.counts().sent();
    }
    return sent;
  }
}
