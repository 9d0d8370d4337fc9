package io.plumb.resources;

import io.plumb.driver.DaemonThreads;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Stalls of the host as a thread of this JVM lives them: a thread asks to sleep {@link
 * #INTERVAL_NANOS} over and over, and a wake-up more than {@link #STALL_NANOS} later than asked is
 * a stall (jHiccup's method). What delays it delays a producer thread alike: the hypervisor taking
 * the VM's CPUs, a GC pause, other processes on the cores, the kernel. So a send delay beside as
 * many stalls as long is the host's, not the generator's.
 *
 * <p>It runs while a reader is open (a run's resource sampling, a worker server), not for the JVM's
 * whole life: a thousand wake-ups a second cost 0.03 of a core on a 2-core VM. Readers share the
 * one thread; each has its own longest stall since its previous read ({@link LongestPause}).
 */
public final class HostStalls {
  /** How long the thread asks to sleep: a host stall of this length or more is always seen. */
  static final long INTERVAL_NANOS = 1_000_000;

  /** A wake-up later than this beyond the asked-for time counts as a stall. */
  public static final long STALL_NANOS = 1_000_000;

  private static final LongestPause LONGEST = new LongestPause();
  private static final LongestPause LONGEST_CORE_WAIT = new LongestPause();
  private static final AtomicLong COUNT = new AtomicLong();
  private static final AtomicLong NANOS = new AtomicLong();
  // Wake-ups so far, for tests that must know the thread has read what they wrote.
  private static volatile long wakeUps;
  private static int readers;
  private static Thread thread;

  private HostStalls() {}

  /**
   * Stalls seen while at least one reader was open, their summed length and the longest since the
   * reader's previous read, with the longest wait of a producer thread for a core ({@link
   * CoreWaits}) over the same span.
   */
  public record Totals(long count, long nanos, long longestNanos, long longestCoreWaitNanos) {}

  /** The thread's wake-ups so far (for tests). */
  static long wakeUps() {
    return wakeUps;
  }

  /** Readers open now in this JVM. */
  static synchronized int openReaders() {
    return readers;
  }

  /** Opens a reader, starting the thread if it is the first. */
  static synchronized Reader open() {
    if (readers++ == 0) {
      thread = DaemonThreads.start("plumb-host-stalls", HostStalls::watch);
    }
    return new Reader(LONGEST.register(), LONGEST_CORE_WAIT.register());
  }

  private static synchronized void close(AtomicLong longest, AtomicLong longestCoreWait) {
    LONGEST.unregister(longest);
    LONGEST_CORE_WAIT.unregister(longestCoreWait);
    if (--readers == 0) {
      thread.interrupt();
      thread = null;
    }
  }

  private static void watch() {
    Thread self = Thread.currentThread();
    long before = System.nanoTime();
    while (!self.isInterrupted()) {
      LockSupport.parkNanos(INTERVAL_NANOS);
      long after = System.nanoTime();
      note(after - before - INTERVAL_NANOS);
      long coreWait = CoreWaits.sample();
      if (coreWait > 0) {
        LONGEST_CORE_WAIT.record(coreWait);
      }
      wakeUps++;
      before = after;
    }
  }

  /** Counts a wake-up {@code lateNanos} later than asked for, if that is a stall. */
  static void note(long lateNanos) {
    if (lateNanos > STALL_NANOS) {
      COUNT.incrementAndGet();
      NANOS.addAndGet(lateNanos);
      LONGEST.record(lateNanos);
    }
  }

  /** One reader: the JVM's totals, with the longest stall since this reader's previous read. */
  static final class Reader implements AutoCloseable {
    private final AtomicLong longest;
    private final AtomicLong longestCoreWait;
    private boolean closed;

    private Reader(AtomicLong longest, AtomicLong longestCoreWait) {
      this.longest = longest;
      this.longestCoreWait = longestCoreWait;
    }

    Totals read() {
      return new Totals(
          COUNT.get(), NANOS.get(), longest.getAndSet(0), longestCoreWait.getAndSet(0));
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        HostStalls.close(longest, longestCoreWait);
      }
    }
  }
}
