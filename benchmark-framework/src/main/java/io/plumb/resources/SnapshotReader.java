package io.plumb.resources;

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
 * <p>GC pauses come from this JVM's one recording ({@link JvmPauses}), started with its first
 * reader (JFR takes a while to start, and a pause before it has is never seen); {@link #close}
 * leaves it running for the JVM's other readers. Host stalls come from the {@link HostStalls}
 * thread, which runs while a reader is open.
 */
public final class SnapshotReader implements ResourceSource {
  private final OperatingSystem os;
  private final CentralProcessor processor;
  private final int workerPid;
  private final List<BrokerProcess> brokers;
  private PauseReader pauses;
  private HostStalls.Reader stalls;

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
    this.pauses = JvmPauses.reader();
    this.stalls = HostStalls.open();
  }

  @Override
  public synchronized Snapshot read() {
    long wall = System.nanoTime();
    OSProcess worker = os.getProcess(workerPid);
    if (pauses == null) {
      throw new IllegalStateException("this JVM's resource reader is closed");
    }
    // The source before the counts: were JFR to start in between, counts that are still none
    // would otherwise be put down to JFR.
    String gcSource = pauses.description();
    PauseTotals gc = pauses.read();
    HostStalls.Totals stalled = stalls.read();
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
        gc.count(),
        gc.nanos(),
        gc.longestNanos(),
        gc.countByKind(),
        gcSource,
        heap,
        processor.getLogicalProcessorCount(),
        processor.getSystemCpuLoadTicks(),
        load.length > 0 ? load[0] : -1,
        stalled.count(),
        stalled.nanos(),
        stalled.longestNanos(),
        stalled.longestCoreWaitNanos(),
        brokerFigures);
  }

  @Override
  public synchronized void close() {
    if (pauses != null) {
      pauses.close();
      pauses = null;
      stalls.close();
    }
  }
}
