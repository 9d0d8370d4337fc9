package io.plumb.remote;

import java.time.Duration;

/**
 * The coordinator's hold on a worker during a run. The coordinator renews it every second; when it
 * has not been renewed for the lease time (the coordinator died, or the network between them did),
 * the worker stops its load on its own, so no orphaned worker keeps hammering a broker.
 */
final class Lease {
  private final long timeoutNanos;
  private boolean armed;
  private long renewedAt;

  Lease(Duration timeout) {
    this.timeoutNanos = timeout.toNanos();
  }

  /** Starts holding (a run began). */
  synchronized void arm() {
    armed = true;
    renewedAt = System.nanoTime();
  }

  /** Stops holding (the run ended normally, or the worker has already stopped it). */
  synchronized void disarm() {
    armed = false;
  }

  synchronized void renew() {
    renewedAt = System.nanoTime();
  }

  synchronized boolean armed() {
    return armed;
  }

  /** True once when the armed lease runs out; it is disarmed by the same call. */
  synchronized boolean expire() {
    if (armed && System.nanoTime() - renewedAt > timeoutNanos) {
      armed = false;
      return true;
    }
    return false;
  }

  Duration timeout() {
    return Duration.ofNanos(timeoutNanos);
  }
}
