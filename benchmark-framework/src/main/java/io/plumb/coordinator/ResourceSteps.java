package io.plumb.coordinator;

import io.plumb.resources.BrokerProcess;
import io.plumb.resources.ResourceReport;
import io.plumb.resources.ResourceSampler;
import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.Worker;

/**
 * Resource sampling on the run's clock: starts with the measured phase and samples at the end of
 * each of its periods, beside the rate and latency samples; also keeps the schedule lag of the last
 * measured period for the bottleneck verdict. It listens to the run like the console does.
 */
final class ResourceSteps implements RunListener {
  private final RunListener next;
  private final ResourceSampler sampler;
  private volatile long lastLag = -1;

  ResourceSteps(Worker worker, RunListener next) {
    this.next = next;
    this.sampler =
        new ResourceSampler(
            worker instanceof LocalWorker
                ? "this JVM: the in-process worker (and the coordinator)"
                : "the coordinator's JVM only: remote workers' JVMs are not sampled",
            BrokerProcess.running());
  }

  ResourceReport report() {
    return sampler.report();
  }

  long lagAtEnd() {
    return lastLag;
  }

  @Override
  public void step(String message) {
    next.step(message);
  }

  @Override
  public void phaseStarted(Phase phase) {
    // The baseline is taken before the measured phase starts (at the warm-up's start and each of
    // its
    // periods' ends), so reading it never delays the first measured period.
    if (phase == Phase.WARMUP || (phase == Phase.MEASURE && !sampler.hasBaseline())) {
      sampler.baseline();
    }
    next.phaseStarted(phase);
  }

  @Override
  public void period(
      Phase phase,
      double elapsedSeconds,
      double phaseSeconds,
      PeriodStats stats,
      double periodSeconds,
      long backlog,
      long lagMessages) {
    if (phase == Phase.WARMUP) {
      sampler.baseline();
    } else if (phase == Phase.MEASURE) {
      sampler.sample();
      lastLag = lagMessages;
    }
    next.period(phase, elapsedSeconds, phaseSeconds, stats, periodSeconds, backlog, lagMessages);
  }

  @Override
  public void finished(RunReport report) {
    next.finished(report);
  }
}
