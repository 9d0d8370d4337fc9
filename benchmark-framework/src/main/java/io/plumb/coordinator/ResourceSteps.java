package io.plumb.coordinator;

import io.plumb.resources.BrokerProcess;
import io.plumb.resources.ResourceReport;
import io.plumb.resources.ResourceSampler;
import io.plumb.resources.ResourceSource;
import io.plumb.worker.Worker;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Resource sampling on the run's clock: starts with the measured phase and samples at the end of
 * each of its periods, beside the rate and latency samples; also keeps the schedule lag of the last
 * measured period for the bottleneck verdict. It listens to the run like the console does.
 *
 * <p>This JVM is sampled with the local brokers; with remote workers, each worker's JVM too, over
 * its HTTP API, at the same period ends.
 */
final class ResourceSteps extends ForwardingRunListener {
  private final ResourceSampler sampler;
  private final Map<String, ResourceSampler> remoteWorkers = new LinkedHashMap<>();
  private volatile long lastLag = -1;
  private ResourceReport report;

  ResourceSteps(Worker worker, RunListener next) {
    super(next);
    Map<String, ResourceSource> remote = worker.remoteResources();
    this.sampler =
        ResourceSampler.ofThisJvm(
            remote.isEmpty()
                ? "this JVM: the in-process worker (and the coordinator)"
                : "the coordinator's JVM: the workers' own are under remoteWorkers",
            BrokerProcess.running());
    remote.forEach(
        (url, source) ->
            remoteWorkers.put(url, new ResourceSampler("remote worker " + url, source)));
  }

  /** The figures of the measured phase; the first call ends sampling. */
  ResourceReport report() {
    if (report == null) {
      Map<String, ResourceReport> workers = new LinkedHashMap<>();
      remoteWorkers.forEach((url, remote) -> workers.put(url, remote.report()));
      report = sampler.report().withRemoteWorkers(workers);
    }
    return report;
  }

  private void baseline() {
    sampler.baseline();
    remoteWorkers.values().forEach(ResourceSampler::baseline);
  }

  private void sample() {
    sampler.sample();
    remoteWorkers.values().forEach(ResourceSampler::sample);
  }

  long lagAtEnd() {
    return lastLag;
  }

  @Override
  public void phaseStarted(Phase phase) {
    // The baseline is taken before the measured phase starts (at the warm-up's start and each of
    // its periods' ends), so reading it never delays the first measured period.
    if (phase == Phase.WARM_UP || (phase == Phase.MEASURE && !sampler.hasBaseline())) {
      baseline();
    }
    super.phaseStarted(phase);
  }

  @Override
  protected void periodEnded(PeriodProgress progress) {
    if (progress.phase() == Phase.WARM_UP) {
      baseline();
    } else if (progress.phase() == Phase.MEASURE) {
      sample();
      lastLag = progress.lagMessages();
    }
  }
}
