package io.plumb.resources;

import java.util.Map;

/**
 * Cumulative counters of this JVM, the host and the broker processes at one instant; two of them
 * make a {@link ResourceSample}.
 *
 * @param cpuTicks the host's CPU ticks by OSHI's TickType order (user, nice, system, idle, iowait,
 *     irq, softirq, steal)
 * @param loadAverage the host's 1-minute load average, or negative when unknown
 */
record Snapshot(
    long wallNanos,
    long workerUserMillis,
    long workerSystemMillis,
    long gcCount,
    long gcMillis,
    long heapUsedBytes,
    long[] cpuTicks,
    double loadAverage,
    Map<String, Broker> brokers) {

  /** One broker process; {@code alive} false once it has exited (its figures then stop). */
  record Broker(
      boolean alive, long userMillis, long systemMillis, long residentBytes, long bytesWritten) {}
}
