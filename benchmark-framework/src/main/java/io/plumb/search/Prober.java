package io.plumb.search;

import java.util.Optional;

/** Runs the workload at one fixed rate for a short time and reports what it measured. */
@FunctionalInterface
public interface Prober {
  ProbeOutcome probe(double rate, SearchSettings settings);

  /**
   * The client windows the probes ran with, in {@link io.plumb.result.WindowSummary}'s words, once
   * a probe has run and if its driver reported them: the search's verdict names them beside the
   * peak, since a window the broker fills caps the rate whatever the broker could do.
   */
  default Optional<String> clientWindows() {
    return Optional.empty();
  }
}
