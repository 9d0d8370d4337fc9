package io.plumb.resources;

import java.util.LinkedHashMap;
import java.util.Map;
import oshi.hardware.CentralProcessor.TickType;

/**
 * What the worker JVM, the host and the brokers used between two snapshots. CPU is in cores (1.0 is
 * one core busy for the whole interval).
 *
 * @param gcLongestPauseMillis the longest single collection (stop-the-world) in the interval
 * @param stealShare the share of the host's CPU time the hypervisor took, 0 to 1
 * @param loadAverage the host's 1-minute load average at the end, or negative when unknown
 */
public record ResourceSample(
    double seconds,
    double workerUserCores,
    double workerSystemCores,
    long gcCount,
    long gcMillis,
    long gcLongestPauseMillis,
    long heapUsedBytes,
    double stealShare,
    double loadAverage,
    Map<String, Broker> brokers) {

  /**
   * @param bytesWritten bytes the process caused to be written to storage in the interval
   */
  public record Broker(double cpuCores, long residentBytes, long bytesWritten) {}

  public ResourceSample {
    brokers = Map.copyOf(brokers);
  }

  public double workerCores() {
    return workerUserCores + workerSystemCores;
  }

  static ResourceSample between(Snapshot from, Snapshot to, long gcLongestPauseMillis) {
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
        to.gcMillis() - from.gcMillis(),
        gcLongestPauseMillis,
        to.heapUsedBytes(),
        stealShare,
        to.loadAverage(),
        brokers);
  }
}
