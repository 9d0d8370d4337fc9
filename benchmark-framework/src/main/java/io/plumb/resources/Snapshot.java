package io.plumb.resources;

import java.util.Map;

/**
 * Cumulative counters of one JVM, its host and the broker processes at one instant; two of them
 * make a {@link ResourceSample}. A remote worker sends its own over HTTP, so the coordinator can
 * sample every worker JVM of a run.
 *
 * @param wallNanos the reading JVM's {@link System#nanoTime}: only differences between two
 *     snapshots of the same JVM mean anything
 * @param gcCount stop-the-world GC pauses since the reader started, as {@code gcSource} saw them
 * @param gcPauseNanos their summed duration
 * @param gcLongestPauseNanos the longest single pause since the previous snapshot was read
 * @param gcPausesByKind {@code gcCount} by the collector's name for the pause ("Pause Remark"),
 *     empty when the source cannot tell
 * @param gcSource where the pauses were read (JFR, or the MXBeans and why not JFR)
 * @param cores the host's logical processors
 * @param cpuTicks the host's CPU ticks by OSHI's TickType order (user, nice, system, idle, iowait,
 *     irq, softirq, steal)
 * @param loadAverage the host's 1-minute load average, or negative when unknown
 * @param hostStalls stalls of the host seen by this JVM's {@link HostStalls} thread so far
 * @param hostStallNanos their summed length
 * @param hostLongestStallNanos the longest since the previous snapshot was read
 * @param producerLongestCoreWaitNanos the longest a producer thread of this JVM waited for a core
 *     at once since the previous snapshot was read ({@link CoreWaits}); 0 without producers
 */
public record Snapshot(
    long wallNanos,
    long workerUserMillis,
    long workerSystemMillis,
    long gcCount,
    long gcPauseNanos,
    long gcLongestPauseNanos,
    Map<String, Long> gcPausesByKind,
    String gcSource,
    long heapUsedBytes,
    int cores,
    long[] cpuTicks,
    double loadAverage,
    long hostStalls,
    long hostStallNanos,
    long hostLongestStallNanos,
    long producerLongestCoreWaitNanos,
    Map<String, Broker> brokers) {

  public Snapshot {
    brokers = Map.copyOf(brokers);
    gcPausesByKind = gcPausesByKind == null ? Map.of() : Map.copyOf(gcPausesByKind);
    gcSource = gcSource == null ? "not reported" : gcSource;
  }

  /** One broker process; {@code alive} false once it has exited (its figures then stop). */
  public record Broker(
      boolean alive, long userMillis, long systemMillis, long residentBytes, long bytesWritten) {}
}
