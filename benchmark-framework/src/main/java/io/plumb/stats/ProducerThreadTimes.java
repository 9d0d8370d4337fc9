package io.plumb.stats;

/**
 * Where producer threads' time went, summed over threads (and over workers, each thread measured on
 * its own host, so no core count enters): the evidence that tells a starved generator from a broker
 * pushing back.
 *
 * @param wallNanos wall time the producer threads were alive
 * @param cpuNanos CPU time they ran ({@code ThreadMXBean#getThreadCpuTime})
 * @param runDelayNanos time they were runnable but waited for a core (Linux's per-thread
 *     schedstat), or -1 when a host does not report it
 */
public record ProducerThreadTimes(long wallNanos, long cpuNanos, long runDelayNanos) {
  public static final ProducerThreadTimes NONE = new ProducerThreadTimes(0, 0, 0);

  public boolean runDelayKnown() {
    return runDelayNanos >= 0;
  }

  public ProducerThreadTimes plus(ProducerThreadTimes other) {
    if (other.wallNanos == 0 && other.cpuNanos == 0) {
      return this;
    }
    if (wallNanos == 0 && cpuNanos == 0) {
      return other;
    }
    return new ProducerThreadTimes(
        wallNanos + other.wallNanos,
        cpuNanos + other.cpuNanos,
        runDelayKnown() && other.runDelayKnown() ? runDelayNanos + other.runDelayNanos : -1);
  }

  /** The times since {@code earlier}, a reading of the same threads. */
  public ProducerThreadTimes since(ProducerThreadTimes earlier) {
    return new ProducerThreadTimes(
        wallNanos - earlier.wallNanos,
        cpuNanos - earlier.cpuNanos,
        runDelayKnown() && earlier.runDelayKnown() ? runDelayNanos - earlier.runDelayNanos : -1);
  }
}
