package io.plumb.search;

/** Runs the workload at one fixed rate for a short time and reports what it measured. */
@FunctionalInterface
public interface Prober {
  ProbeOutcome probe(double rate, SearchSettings settings);
}
