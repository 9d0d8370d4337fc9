package io.plumb.remote;

import io.plumb.driver.DaemonThreads;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Renews every live worker's lease each second; the renewal doubles as a heartbeat. A worker whose
 * renewals have failed for {@link DistributedWorkers#LOST_AFTER} is declared lost. A worker whose
 * lease runs out (the coordinator died) stops its load on its own.
 */
final class LeaseKeeper {
  private static final Duration RENEW_EVERY = Duration.ofSeconds(1);

  /**
   * A gap between renewals longer than this means the coordinator itself stood still: a renewal
   * that timed out meanwhile is not the worker's silence.
   */
  private static final Duration STALL = Duration.ofSeconds(3);

  private final WorkerFleet fleet;
  private final Duration lostAfter;
  private StallWatch renewals;
  private final ScheduledExecutorService heartbeat =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("plumb-heartbeat"));

  LeaseKeeper(WorkerFleet fleet, Duration lostAfter) {
    this.fleet = fleet;
    this.lostAfter = lostAfter;
  }

  void start() {
    long now = System.nanoTime();
    renewals = new StallWatch(STALL, now);
    for (RemoteMember member : fleet.all()) {
      member.lastAnswer = now;
    }
    heartbeat.scheduleWithFixedDelay(
        this::renewLeases, 0, RENEW_EVERY.toMillis(), TimeUnit.MILLISECONDS);
  }

  void stop() {
    heartbeat.shutdownNow();
  }

  private void renewLeases() {
    long now = System.nanoTime();
    boolean stoodStill = renewals.tick(now) > 0;
    for (RemoteMember member : fleet.live()) {
      if (stoodStill) {
        member.lastAnswer = now;
      }
      member
          .worker
          .renewLease(lostAfter.dividedBy(2))
          .whenComplete(
              (ok, failure) -> {
                if (failure == null) {
                  member.lastAnswer = System.nanoTime();
                  member.failingSinceAnswer = false;
                } else {
                  member.lastProblem = HttpWorker.describe(failure);
                  member.failingSinceAnswer = true;
                }
              });
      long silent = now - member.lastAnswer;
      // Only renewals that failed count: a heartbeat delayed on a busy coordinator is not the
      // worker's silence.
      if (member.failingSinceAnswer && silent > lostAfter.toNanos()) {
        fleet.lose(
            member, String.format("no answer for %.1f s (%s)", silent / 1e9, member.lastProblem));
      }
    }
  }
}
