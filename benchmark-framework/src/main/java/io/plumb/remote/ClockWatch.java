package io.plumb.remote;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Measures every worker's clock on a thread that does nothing else, so no other work of the
 * coordinator's widens a probe's round trip: on demand before the load (the offsets then used for
 * end-to-end latency), every few seconds while it runs, and once after, so a drift, or a quiet
 * moment with tighter round trips, is caught. Before the offsets are used each measurement replaces
 * a looser one; once used, later ones can only widen their stated uncertainty ({@link
 * ClockOffset#checkedAgainst}).
 */
final class ClockWatch implements AutoCloseable {
  private static final long EVERY_SECONDS = 5;

  private final Supplier<List<RemoteMember>> members;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(WorkerFleet.daemon("plumb-clock"));
  private volatile boolean offsetsInUse;

  ClockWatch(Supplier<List<RemoteMember>> members) {
    this.members = members;
  }

  /** Measures every worker now, on the watch's thread, and returns once done. */
  void measureNow() {
    try {
      thread.submit(this::measureAll).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // a worker not answering is the lease keeper's to report, not the clock's
    }
  }

  /** The offsets now correct end-to-end latency: keep them, and measure on while the load runs. */
  void offsetsInUse() {
    offsetsInUse = true;
    thread.scheduleWithFixedDelay(this::measureAll, EVERY_SECONDS, EVERY_SECONDS, TimeUnit.SECONDS);
  }

  private void measureAll() {
    for (RemoteMember member : members.get()) {
      try {
        ClockOffset measured = WorkerSession.measureClock(member.worker);
        member.clock =
            offsetsInUse ? member.clock.checkedAgainst(measured) : member.clock.tighter(measured);
      } catch (RuntimeException e) {
        // as above: the next measurement, or the lease keeper, will tell
      }
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
