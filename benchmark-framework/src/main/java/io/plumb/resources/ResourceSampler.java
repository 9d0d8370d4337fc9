package io.plumb.resources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples resources once per period of a run's measured phase: {@link #baseline} as it begins,
 * {@link #sample} at each period's end (on the coordinator's period thread, so never concurrently),
 * {@link #report} once the run is over. A failure to read (a process gone, /proc unreadable) ends
 * sampling rather than the run: resources describe a run, they never stop one.
 */
public final class ResourceSampler {
  private final String scope;
  private final List<BrokerProcess> brokers;
  private SnapshotReader reader;
  private GcPauses gcPauses;
  private int cores;
  private Snapshot first;
  private Snapshot last;
  private final List<ResourceSample> periods = new ArrayList<>();
  private String failure;

  /**
   * Sets up the readers now (OSHI's first use takes a while), so that nothing slow stands between
   * the start of the measured phase and its first period.
   *
   * @param scope what "worker" means in the figures, e.g. "this JVM (in-process worker)"
   */
  public ResourceSampler(String scope, List<BrokerProcess> brokers) {
    this.scope = scope;
    this.brokers = List.copyOf(brokers);
    try {
      reader = new SnapshotReader(this.brokers);
      cores = reader.cores();
    } catch (RuntimeException | LinkageError e) {
      failure = "resources not sampled: " + e;
    }
  }

  /**
   * Takes the snapshot the measured phase is counted from: called at the end of every warm-up
   * period (the last is the measured phase's start) and, without a warm-up, as it starts.
   */
  public void baseline() {
    if (reader == null) {
      return;
    }
    try {
      if (gcPauses == null) {
        // From here on the run always ends in report(), which removes the listener again.
        gcPauses = new GcPauses();
      }
      first = reader.read();
      last = first;
      periods.clear();
      gcPauses.takeLongestMillis();
    } catch (RuntimeException e) {
      failure = "resources not sampled: " + e;
      reader = null;
    }
  }

  public boolean hasBaseline() {
    return first != null;
  }

  public void sample() {
    if (reader == null || last == null) {
      return;
    }
    try {
      Snapshot now = reader.read();
      periods.add(ResourceSample.between(last, now, gcPauses.takeLongestMillis()));
      last = now;
    } catch (RuntimeException e) {
      failure = "resources not sampled after period " + periods.size() + ": " + e;
      reader = null;
    }
  }

  public ResourceReport report() {
    if (gcPauses != null) {
      gcPauses.close();
    }
    if (first == null || periods.isEmpty()) {
      return new ResourceReport(
          failure == null ? scope : failure, 0, List.of(), null, 0, -1, Map.of());
    }
    long heapMax = 0;
    long longestPause = 0;
    double loadMax = -1;
    Map<String, Long> residentMax = new LinkedHashMap<>();
    for (ResourceSample sample : periods) {
      heapMax = Math.max(heapMax, sample.heapUsedBytes());
      longestPause = Math.max(longestPause, sample.gcLongestPauseMillis());
      loadMax = Math.max(loadMax, sample.loadAverage());
      sample
          .brokers()
          .forEach((label, b) -> residentMax.merge(label, b.residentBytes(), Math::max));
    }
    return new ResourceReport(
        failure == null ? scope : scope + "; " + failure,
        cores,
        periods,
        ResourceSample.between(first, last, longestPause),
        heapMax,
        loadMax,
        residentMax);
  }
}
