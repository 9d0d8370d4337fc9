package io.plumb.load;

import io.plumb.resources.CoreWaits;
import io.plumb.stats.ProducerThreadTimes;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One producer thread's wall, CPU and run-queue time, read by another thread once a period (never
 * per message). The run-queue time is what tells a thread that wanted a core and did not get one
 * from a thread that slept: Linux reports it per thread in {@code /proc/<pid>/task/<tid>/schedstat}
 * (its second field, nanoseconds runnable but not running); other hosts leave it unknown.
 */
final class ProducerThreadClock {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Thread thread;
  private final Path schedstat;
  private final long startNanos;
  private final CoreWaits.Watch coreWaits;
  // Set by the thread itself as it ends, when its own figures can no longer be read from outside.
  private volatile ProducerThreadTimes last;

  private ProducerThreadClock(Thread thread, Path schedstat, long startNanos) {
    this.thread = thread;
    this.schedstat = schedstat;
    this.startNanos = startNanos;
    // Its longest single wait for a core, read every millisecond by the host-stall thread.
    this.coreWaits = schedstat == null ? () -> {} : CoreWaits.watch(schedstat);
  }

  /** Called on the producer thread as it starts. */
  static ProducerThreadClock forCurrentThread() {
    Path schedstat = null;
    try {
      // "<pid>/task/<tid>": the only way to learn a Java thread's kernel id on JDK 17.
      Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      Path candidate = Path.of("/proc").resolve(self).resolve("schedstat");
      if (Files.isReadable(candidate)) {
        schedstat = candidate;
      }
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // Not Linux, or /proc hidden: the run-queue time stays unknown.
    }
    return new ProducerThreadClock(Thread.currentThread(), schedstat, System.nanoTime());
  }

  /** Called on the producer thread as its loop ends: the last reading, kept for later periods. */
  void finish() {
    last = read();
    coreWaits.close();
  }

  /** The thread's times since it started. */
  ProducerThreadTimes read() {
    ProducerThreadTimes finished = last;
    if (finished != null) {
      return finished;
    }
    long wall = System.nanoTime() - startNanos;
    long cpu = THREADS.isThreadCpuTimeSupported() ? THREADS.getThreadCpuTime(thread.getId()) : -1;
    long runDelay = runDelay();
    if (cpu < 0) {
      // The thread ended between the check above and now: its final reading is set by now.
      finished = last;
      return finished != null ? finished : new ProducerThreadTimes(wall, 0, -1);
    }
    return new ProducerThreadTimes(wall, cpu, runDelay);
  }

  private long runDelay() {
    if (schedstat == null) {
      return -1;
    }
    try {
      String[] fields = Files.readString(schedstat).trim().split("\\s+");
      return fields.length >= 2 ? Long.parseLong(fields[1]) : -1;
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }
}
