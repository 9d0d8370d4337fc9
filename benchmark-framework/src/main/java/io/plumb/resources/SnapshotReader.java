package io.plumb.resources;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.software.os.OSProcess;
import oshi.software.os.OperatingSystem;

/**
 * Reads a {@link Snapshot}: this JVM's CPU (user and system, from OSHI) and its collectors and heap
 * (from the JVM's own MXBeans), the host's CPU ticks and load, and each broker process's CPU,
 * resident memory and bytes written to disk (OSHI, from the PIDs the deploy scripts recorded).
 *
 * <p>The longest GC pause comes from a listener registered at the first read and removed by {@link
 * #close}, so a reader that was never read leaves nothing behind.
 */
public final class SnapshotReader implements ResourceSource {
  private final OperatingSystem os;
  private final CentralProcessor processor;
  private final int workerPid;
  private final List<BrokerProcess> brokers;
  private GcPauses gcPauses;

  /**
   * A reader of this JVM and {@code brokers}, set up now (OSHI's first use takes a while); where
   * OSHI cannot start, a source whose every read fails with the reason, so that resources go
   * unsampled and nothing else stops.
   */
  public static ResourceSource open(List<BrokerProcess> brokers) {
    try {
      return new SnapshotReader(brokers);
    } catch (RuntimeException | LinkageError e) {
      String reason = "cannot read this JVM's resources: " + e;
      return () -> {
        throw new IllegalStateException(reason);
      };
    }
  }

  private SnapshotReader(List<BrokerProcess> brokers) {
    SystemInfo system = new SystemInfo();
    this.os = system.getOperatingSystem();
    this.processor = system.getHardware().getProcessor();
    this.workerPid = (int) ProcessHandle.current().pid();
    this.brokers = List.copyOf(brokers);
  }

  @Override
  public synchronized Snapshot read() {
    if (gcPauses == null) {
      gcPauses = new GcPauses();
    }
    long wall = System.nanoTime();
    OSProcess worker = os.getProcess(workerPid);
    long gcCount = 0;
    long gcMillis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcCount += Math.max(0, gc.getCollectionCount());
      gcMillis += Math.max(0, gc.getCollectionTime());
    }
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    double[] load = processor.getSystemLoadAverage(1);
    Map<String, Snapshot.Broker> brokerFigures = new LinkedHashMap<>();
    for (BrokerProcess broker : brokers) {
      OSProcess process = os.getProcess((int) broker.pid());
      brokerFigures.put(
          broker.label(),
          process == null
              ? new Snapshot.Broker(false, 0, 0, 0, 0)
              : new Snapshot.Broker(
                  true,
                  process.getUserTime(),
                  process.getKernelTime(),
                  process.getResidentSetSize(),
                  process.getBytesWritten()));
    }
    return new Snapshot(
        wall,
        worker == null ? 0 : worker.getUserTime(),
        worker == null ? 0 : worker.getKernelTime(),
        gcCount,
        gcMillis,
        gcPauses.takeLongestMillis(),
        heap,
        processor.getLogicalProcessorCount(),
        processor.getSystemCpuLoadTicks(),
        load.length > 0 ? load[0] : -1,
        brokerFigures);
  }

  @Override
  public synchronized void close() {
    if (gcPauses != null) {
      gcPauses.close();
      gcPauses = null;
    }
  }
}
