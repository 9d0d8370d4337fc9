package io.plumb.load;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.ProducerThreadTimes;
import io.plumb.stats.StatsCollector;
import io.plumb.workload.KeyChooser;
import io.plumb.workload.KeyDistributorType;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One producer loop far above what it can send (50M msg/s), so that every send goes back to back,
 * against a driver whose send() takes a set time and completes inline: the harness of the tests of
 * the loop's timing.
 */
final class BackToBackLoad {
  private BackToBackLoad() {}

  /**
   * What the loop did: its totals, the wall time it ran, its thread's times (on a core and not),
   * and the one period of statistics.
   */
  record Outcome(
      long sent, long nanosInSend, long wallNanos, ProducerThreadTimes thread, PeriodStats period) {

    /**
     * The loop thread's time off a core while it ran: a thread descheduled between two clock
     * readings around send() has that time counted as send()'s, whoever took the core.
     */
    long offCoreNanos() {
      return Math.max(0, thread.wallNanos() - thread.cpuNanos());
    }
  }

  /**
   * A send() that spins {@code eachNanos} (0: returns at once) and, one in {@code blockEvery} (0:
   * none), {@code blockNanos} more, then completes inline.
   */
  static final class SpinningProducer implements BenchmarkProducer {
    private final long eachNanos;
    private final long blockNanos;
    private final long blockEvery;
    private final AtomicLong blocked = new AtomicLong();
    private long sends;

    SpinningProducer(long eachNanos, long blockNanos, long blockEvery) {
      this.eachNanos = eachNanos;
      this.blockNanos = blockNanos;
      this.blockEvery = blockEvery;
    }

    /** A send() that takes {@code nanos} every time. */
    static SpinningProducer taking(long nanos) {
      return new SpinningProducer(nanos, 0, 0);
    }

    /** How many sends blocked. */
    long blocked() {
      return blocked.get();
    }

    @Override
    public void send(String key, byte[] payload, long token, SendListener listener) {
      long spin = eachNanos;
      if (blockEvery > 0 && ++sends % blockEvery == 0) {
        spin += blockNanos;
        blocked.incrementAndGet();
      }
      long until = System.nanoTime() + spin;
      while (spin > 0 && System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      listener.sendCompleted(token, null);
    }

    @Override
    public void close() {}
  }

  /** Runs {@code producer} back to back for {@code millis}. */
  static Outcome run(BenchmarkProducer producer, long millis) throws InterruptedException {
    WorkerClock clock = new WorkerClock();
    try (StatsCollector stats = new StatsCollector("plumb-stats-test")) {
      stats.expectProducers(1);
      ProducerTask task =
          new ProducerTask(
              0,
              producer,
              new KeyChooser(KeyDistributorType.NO_KEY, 1),
              0,
              new ProducerTask.Shared(1, new byte[][] {new byte[1024]}, false, clock, stats));
      LoadGenerator generator =
          new LoadGenerator(
              List.of(task), 50_000_000, clock.now(), 1, Pacing.EFFICIENT, clock, stats);
      long started = System.nanoTime();
      generator.start();
      // parkNanos may return early (a spurious wake-up): park again for what is left, or a run
      // meant to last a second can end after 48 ms with nothing sent.
      long deadline = started + millis * 1_000_000;
      for (long left = deadline - System.nanoTime();
          left > 0;
          left = deadline - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
      generator.stop();
      long wall = System.nanoTime() - started;
      PeriodStats.Builder period = new PeriodStats.Builder();
      stats.takePeriod(period);
      return new Outcome(
          generator.sent(), generator.nanosInSend(), wall, generator.threadTimes(), period.build());
    }
  }
}
