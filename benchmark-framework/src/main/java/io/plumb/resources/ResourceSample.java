package io.plumb.resources;

import java.util.LinkedHashMap;
import java.util.Map;
import oshi.hardware.CentralProcessor.TickType;

/**
 * What the worker JVM, the host and the brokers used between two snapshots. CPU is in cores (1.0 is
 * one core busy for the whole interval).
 *
 * @param gcCount stop-the-world GC pauses in the interval
 * @param gcMillis their summed duration
 * @param gcLongestPauseMillis the longest single stop-the-world GC pause in the interval
 * @param gcPausesByKind {@code gcCount} by kind of pause ("GC Pause", "Pause Remark"), empty when
 *     the source cannot tell
 * @param gcSource where the pauses were read
 * @param stealShare the share of the host's CPU time the hypervisor took, 0 to 1
 * @param loadAverage the host's 1-minute load average at the end, or negative when unknown
 * @param hostStalls stalls of the host in the interval: wake-ups of a thread that sleeps 1 ms at a
 *     time, late by more than {@link HostStalls#STALL_NANOS}
 * @param hostStallMillis their summed lateness
 * @param hostLongestStallMillis the longest of them
 */
public record ResourceSample(
    double seconds,
    double workerUserCores,
    double workerSystemCores,
    long gcCount,
    double gcMillis,
    double gcLongestPauseMillis,
    Map<String, Long> gcPausesByKind,
    String gcSource,
    long heapUsedBytes,
    double stealShare,
    double loadAverage,
    long hostStalls,
    double hostStallMillis,
    double hostLongestStallMillis,
    double producerLongestCoreWaitMillis,
    Map<String, Broker> brokers) {

  /**
   * @param bytesWritten bytes the process caused to be written to storage in the interval
   */
  public record Broker(double cpuCores, long residentBytes, long bytesWritten) {}

  public ResourceSample {
    brokers = Map.copyOf(brokers);
    gcPausesByKind = Map.copyOf(gcPausesByKind);
  }

  public double workerCores() {
    return workerUserCores + workerSystemCores;
  }

  static ResourceSample between(
      Snapshot from,
      Snapshot to,
      long gcLongestPauseNanos,
      long hostLongestStallNanos,
      long producerLongestCoreWaitNanos) {
    double seconds = Math.max(1e-9, (to.wallNanos() - from.wallNanos()) / 1e9);
    long totalTicks = 0;
    for (int i = 0; i < to.cpuTicks().length; i++) {
      totalTicks += to.cpuTicks()[i] - from.cpuTicks()[i];
    }
    int steal = TickType.STEAL.getIndex();
    double stealShare =
        totalTicks > 0 ? (double) (to.cpuTicks()[steal] - from.cpuTicks()[steal]) / totalTicks : 0;
    Map<String, Broker> brokers = new LinkedHashMap<>();
    to.brokers()
        .forEach(
            (label, now) -> {
              Snapshot.Broker before = from.brokers().get(label);
              if (now.alive() && before != null && before.alive()) {
                brokers.put(
                    label,
                    new Broker(
                        (now.userMillis()
                                + now.systemMillis()
                                - before.userMillis()
                                - before.systemMillis())
                            / 1e3
                            / seconds,
                        now.residentBytes(),
                        Math.max(0, now.bytesWritten() - before.bytesWritten())));
              }
            });
    return new ResourceSample(
        seconds,
        (to.workerUserMillis() - from.workerUserMillis()) / 1e3 / seconds,
        (to.workerSystemMillis() - from.workerSystemMillis()) / 1e3 / seconds,
        to.gcCount() - from.gcCount(),
        (to.gcPauseNanos() - from.gcPauseNanos()) / 1e6,
        gcLongestPauseNanos / 1e6,
        pausesBetween(from.gcPausesByKind(), to.gcPausesByKind()),
        to.gcSource(),
        to.heapUsedBytes(),
        stealShare,
        to.loadAverage(),
        to.hostStalls() - from.hostStalls(),
        (to.hostStallNanos() - from.hostStallNanos()) / 1e6,
        hostLongestStallNanos / 1e6,
        producerLongestCoreWaitNanos / 1e6,
        brokers);
  }

  private static Map<String, Long> pausesBetween(Map<String, Long> from, Map<String, Long> to) {
    Map<String, Long> between = new java.util.TreeMap<>();
    to.forEach(
        (kind, count) -> {
          long added = count - from.getOrDefault(kind, 0L);
          if (added > 0) {
            between.put(kind, added);
          }
        });
    return between;
  }
}
