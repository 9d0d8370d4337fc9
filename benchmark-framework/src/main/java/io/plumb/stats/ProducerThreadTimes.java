package io.plumb.stats;

/**
 * Where producer threads' time went, summed over threads (and over workers, each thread measured on
 * its own host, so no core count enters), with the CPU pressure of the hosts they ran on: the
 * evidence that tells a starved generator from a broker pushing back.
 *
 * @param wallNanos wall time the producer threads were alive
 * @param cpuNanos CPU time they ran ({@code ThreadMXBean#getThreadCpuTime})
 * @param runDelayNanos time they were runnable but waited for a core (Linux's per-thread
 *     schedstat), or -1 when a host does not report it
 * @param hostWallNanos wall time over which the hosts' CPU pressure was read, summed over workers
 * @param hostCpuWaitNanos of that, the time some runnable task on the host waited for a CPU
 *     (Linux's {@code /proc/pressure/cpu} "some"), or -1 when a host does not report it
 */
public record ProducerThreadTimes(
    long wallNanos, long cpuNanos, long runDelayNanos, long hostWallNanos, long hostCpuWaitNanos) {
  public static final ProducerThreadTimes NONE = new ProducerThreadTimes(0, 0, 0, 0, 0);

  /** Threads' times without the host's pressure. */
  public ProducerThreadTimes(long wallNanos, long cpuNanos, long runDelayNanos) {
    this(wallNanos, cpuNanos, runDelayNanos, 0, 0);
  }

  public boolean runDelayKnown() {
    return runDelayNanos >= 0;
  }

  /** The same threads' times with the host's pressure read at the same moment. */
  public ProducerThreadTimes onHost(long hostWall, long hostCpuWait) {
    return new ProducerThreadTimes(wallNanos, cpuNanos, runDelayNanos, hostWall, hostCpuWait);
  }

  public ProducerThreadTimes plus(ProducerThreadTimes other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    return new ProducerThreadTimes(
        wallNanos + other.wallNanos,
        cpuNanos + other.cpuNanos,
        add(runDelayNanos, other.runDelayNanos),
        hostWallNanos + other.hostWallNanos,
        add(hostCpuWaitNanos, other.hostCpuWaitNanos));
  }

  /** The times since {@code earlier}, a reading of the same threads and host. */
  public ProducerThreadTimes since(ProducerThreadTimes earlier) {
    return new ProducerThreadTimes(
        wallNanos - earlier.wallNanos,
        cpuNanos - earlier.cpuNanos,
        subtract(runDelayNanos, earlier.runDelayNanos),
        hostWallNanos - earlier.hostWallNanos,
        subtract(hostCpuWaitNanos, earlier.hostCpuWaitNanos));
  }

  private boolean isEmpty() {
    return wallNanos == 0 && cpuNanos == 0 && hostWallNanos == 0;
  }

  private static long add(long a, long b) {
    return a >= 0 && b >= 0 ? a + b : -1;
  }

  private static long subtract(long a, long b) {
    return a >= 0 && b >= 0 ? a - b : -1;
  }
}
