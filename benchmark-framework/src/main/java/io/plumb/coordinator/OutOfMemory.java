package io.plumb.coordinator;

/** The one line a run that ran out of heap ends with, saying what would have held it. */
final class OutOfMemory {
  private OutOfMemory() {}

  static String explain(RunContext run, OutOfMemoryError error) {
    long max = Runtime.getRuntime().maxMemory();
    return String.format(
        "out of memory (%s) with a heap of %s: %s",
        error.getMessage(),
        MemoryEstimate.format(max),
        MemoryEstimate.of(run.workload()).advice(max));
  }
}
