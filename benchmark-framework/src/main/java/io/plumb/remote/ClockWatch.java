package io.plumb.remote;

import io.plumb.driver.DaemonThreads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Measures every worker's clock on a thread that does nothing else, so no other work of the
 * coordinator's widens a probe's round trip: on demand before the load (the offsets then used for
 * end-to-end latency), between periods while it runs (right after a period's figures are gathered,
 * the coordinator's quiet moment, at most every {@link #EVERY_SECONDS} seconds), and once after, so
 * a drift, or a quiet moment with tighter round trips, is caught. Before the offsets are used each
 * measurement replaces a looser one; once used, later ones can only widen their stated uncertainty
 * ({@link ClockOffset#checkedAgainst}).
 *
 * <p>Nothing here touches the workers' messages: a probe is a call to the worker's {@code /clock},
 * answered on its HTTP threads (about 0.15 ms of CPU each on a 2-core virtual machine, so a check
 * of 100 costs a worker some 15 ms every 5 s or more), and a later measurement changes only the
 * coordinator's record of the uncertainty, never the corrections the workers apply.
 */
final class ClockWatch implements AutoCloseable {
  static final long EVERY_SECONDS = 5;

  private final Supplier<List<RemoteMember>> members;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(DaemonThreads.named("plumb-clock"));
  private final AtomicBoolean queued = new AtomicBoolean();
  private volatile boolean offsetsInUse;
  private volatile boolean closed;
  private final long everyNanos;
  private volatile long lastStarted = System.nanoTime();

  ClockWatch(Supplier<List<RemoteMember>> members) {
    this(members, Duration.ofSeconds(EVERY_SECONDS));
  }

  /** With checks at most every {@code every}: tests use a shorter one. */
  ClockWatch(Supplier<List<RemoteMember>> members, Duration every) {
    this.members = members;
    this.everyNanos = every.toNanos();
  }

  /** Measures every worker now, on the watch's thread, and returns once done. */
  void measureNow() {
    try {
      thread.submit(this::measureAll).get();
    } catch (RejectedExecutionException e) {
      // closed: the run is over, and nothing is left to correct
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // a worker not answering is the lease keeper's to report, not the clock's
    }
  }

  /** The offsets now correct end-to-end latency: keep them, and only check them from now on. */
  void offsetsInUse() {
    offsetsInUse = true;
  }

  /**
   * A period's figures were just gathered: until the next period ends the coordinator has nothing
   * else to do, so a measurement that is due starts now, without holding up the caller.
   */
  void periodTaken() {
    if (!offsetsInUse
        || closed
        || System.nanoTime() - lastStarted < everyNanos
        || !queued.compareAndSet(false, true)) {
      return;
    }
    try {
      thread.execute(
          () -> {
            queued.set(false);
            measureAll();
          });
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  private void measureAll() {
    lastStarted = System.nanoTime();
    boolean checking = offsetsInUse;
    int rounds = checking ? ClockOffset.CHECK_ROUNDS : ClockOffset.ROUNDS;
    for (RemoteMember member : members.get()) {
      try {
        ClockOffset measured = WorkerSession.measureClock(member.clockProbe, rounds);
        member.clock =
            checking ? member.clock.checkedAgainst(measured) : member.clock.tighter(measured);
      } catch (RuntimeException e) {
        // as above: the next measurement, or the lease keeper, will tell
      }
    }
  }

  /** Safe to call twice, and after it every other method does nothing. */
  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
  }
}
