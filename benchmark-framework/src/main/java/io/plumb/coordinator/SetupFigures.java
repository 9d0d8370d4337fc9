package io.plumb.coordinator;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What setting up and tearing down a run cost: how long each took and the heap in use once every
 * topic, producer and consumer existed, so the cost per entity of a many-topic workload is read
 * from its result. Heap figures are this process's: the in-process worker's, or only the
 * coordinator's when workers are remote.
 */
final class SetupFigures {
  /** From this many clients on, a collection before the load clears set-up's garbage. */
  static final int COLLECT_FROM_CLIENTS = 1_000;

  private final long startNanos = System.nanoTime();
  private double setupSeconds = Double.NaN;
  private long heapUsed = -1;
  private boolean collected;
  private double teardownSeconds = Double.NaN;
  private long heapUsedAfterLoad = -1;

  /**
   * Set-up is done. With many clients, collects the set-up's garbage first: it would otherwise be
   * collected during the measurement, and the heap in use is then the entities' own.
   *
   * @return the console's line of what was set up, how fast and with how much heap
   */
  String setUpDone(RunPlan plan) {
    setupSeconds = (System.nanoTime() - startNanos) / 1e9;
    collected = plan.producers().size() + plan.consumers().size() >= COLLECT_FROM_CLIENTS;
    heapUsed = heapInUse(collected);
    return String.format(
        "set up in %.1f s: %,d topic(s), %,d producer(s), %,d consumer(s); heap in use %s of %s",
        setupSeconds,
        plan.topics().size(),
        plan.producers().size(),
        plan.consumers().size(),
        MemoryEstimate.format(heapUsed),
        MemoryEstimate.format(Runtime.getRuntime().maxMemory()));
  }

  /**
   * The load has stopped and drained, the clients still exist: the heap now also holds what the
   * load added (schedules, in-flight tables, the sequence sets of what was received).
   */
  void loadDone() {
    heapUsedAfterLoad = heapInUse(collected);
  }

  private static long heapInUse(boolean collect) {
    if (collect) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  void tornDown(double seconds) {
    teardownSeconds = seconds;
  }

  Map<String, Object> describe() {
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("setupSeconds", Double.isNaN(setupSeconds) ? null : setupSeconds);
    figures.put("heapUsedAfterSetupBytes", heapUsed < 0 ? null : heapUsed);
    figures.put("heapUsedAfterLoadBytes", heapUsedAfterLoad < 0 ? null : heapUsedAfterLoad);
    figures.put("heapCollectedBeforeReading", collected);
    figures.put("teardownSeconds", Double.isNaN(teardownSeconds) ? null : teardownSeconds);
    return figures;
  }
}
