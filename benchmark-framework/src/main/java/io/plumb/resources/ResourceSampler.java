package io.plumb.resources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples one JVM's resources once per period of a run's measured phase: {@link #baseline} as it
 * begins, {@link #sample} at each period's end (on the coordinator's period thread, so never
 * concurrently), {@link #report} once the run is over. A failure to read (a process gone, a worker
 * not answering) ends sampling rather than the run: resources describe a run, they never stop one.
 */
public final class ResourceSampler {
  private final String scope;
  private ResourceSource source;
  private Snapshot first;
  private Snapshot last;
  private final List<ResourceSample> periods = new ArrayList<>();
  private String failure;

  /**
   * @param scope whose JVM "worker" means in the figures, e.g. "this JVM (in-process worker)"
   */
  public ResourceSampler(String scope, ResourceSource source) {
    this.scope = scope;
    this.source = source;
  }

  /**
   * This JVM and the given broker processes, with the reader set up now, so that nothing slow
   * stands between the start of the measured phase and its first period.
   */
  public static ResourceSampler ofThisJvm(String scope, List<BrokerProcess> brokers) {
    return new ResourceSampler(scope, SnapshotReader.open(brokers));
  }

  /**
   * Takes the snapshot the measured phase is counted from: called at the end of every warm-up
   * period (the last is the measured phase's start) and, without a warm-up, as it starts.
   */
  public void baseline() {
    if (source == null) {
      return;
    }
    try {
      first = source.read();
      last = first;
      periods.clear();
    } catch (RuntimeException e) {
      stop("resources not sampled: " + e);
    }
  }

  public boolean hasBaseline() {
    return first != null;
  }

  public void sample() {
    if (source == null || last == null) {
      return;
    }
    try {
      Snapshot now = source.read();
      periods.add(
          ResourceSample.between(
              last,
              now,
              now.gcLongestPauseNanos(),
              now.hostLongestStallNanos(),
              now.producerLongestCoreWaitNanos()));
      last = now;
    } catch (RuntimeException e) {
      stop("resources not sampled after period " + periods.size() + ": " + e);
    }
  }

  /** The figures so far; the reader is released, so call it once, when the run is over. */
  public ResourceReport report() {
    if (source != null) {
      source.close();
      source = null;
    }
    if (first == null || periods.isEmpty()) {
      return new ResourceReport(
          failure == null ? scope : failure, 0, List.of(), null, 0, -1, Map.of(), Map.of());
    }
    long heapMax = 0;
    long longestPauseNanos = 0;
    long longestStallNanos = 0;
    long longestCoreWaitNanos = 0;
    double loadMax = -1;
    Map<String, Long> residentMax = new LinkedHashMap<>();
    for (ResourceSample sample : periods) {
      heapMax = Math.max(heapMax, sample.heapUsedBytes());
      longestPauseNanos =
          Math.max(longestPauseNanos, Math.round(sample.gcLongestPauseMillis() * 1e6));
      longestStallNanos =
          Math.max(longestStallNanos, Math.round(sample.hostLongestStallMillis() * 1e6));
      longestCoreWaitNanos =
          Math.max(longestCoreWaitNanos, Math.round(sample.producerLongestCoreWaitMillis() * 1e6));
      loadMax = Math.max(loadMax, sample.loadAverage());
      sample
          .brokers()
          .forEach((label, b) -> residentMax.merge(label, b.residentBytes(), Math::max));
    }
    return new ResourceReport(
        failure == null ? scope : scope + "; " + failure,
        last.cores(),
        periods,
        ResourceSample.between(
            first, last, longestPauseNanos, longestStallNanos, longestCoreWaitNanos),
        heapMax,
        loadMax,
        residentMax,
        Map.of());
  }

  private void stop(String reason) {
    failure = reason;
    source.close();
    source = null;
  }
}
