package io.plumb.resources;

import java.util.Map;

/**
 * Cumulative counters of one JVM, its host and the broker processes at one instant; two of them
 * make a {@link ResourceSample}. A remote worker sends its own over HTTP, so the coordinator can
 * sample every worker JVM of a run.
 *
 * @param wallNanos the reading JVM's {@link System#nanoTime}: only differences between two
 *     snapshots of the same JVM mean anything
 * @param gcLongestPauseMillis the longest single collection since the previous snapshot was read
 * @param cores the host's logical processors
 * @param cpuTicks the host's CPU ticks by OSHI's TickType order (user, nice, system, idle, iowait,
 *     irq, softirq, steal)
 * @param loadAverage the host's 1-minute load average, or negative when unknown
 */
public record Snapshot(
    long wallNanos,
    long workerUserMillis,
    long workerSystemMillis,
    long gcCount,
    long gcMillis,
    long gcLongestPauseMillis,
    long heapUsedBytes,
    int cores,
    long[] cpuTicks,
    double loadAverage,
    Map<String, Broker> brokers) {

  public Snapshot {
    brokers = Map.copyOf(brokers);
  }

  /** One broker process; {@code alive} false once it has exited (its figures then stop). */
  public record Broker(
      boolean alive, long userMillis, long systemMillis, long residentBytes, long bytesWritten) {}
}
