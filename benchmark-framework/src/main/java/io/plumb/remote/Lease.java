package io.plumb.remote;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The coordinator's hold on a worker during a run. The coordinator renews it every second; when it
 * has not been renewed for the lease time (the coordinator died, or the network between them did),
 * the worker stops its load on its own, so no orphaned worker keeps hammering a broker.
 *
 * <p>The lease counts only time this worker was running. When the watchdog's checks come much later
 * than scheduled, this process (a long pause) or its whole host (a frozen VM) stood still: the
 * coordinator's renewals were waiting unread in the socket, so that time is not the coordinator's
 * silence. Without this credit a 16 s freeze of a CI host ended a healthy run, because the watchdog
 * woke before the queued renewals were read.
 */
final class Lease {
  /** How often the worker's watchdog calls {@link #expire()}. */
  static final Duration CHECK_EVERY = Duration.ofMillis(500);

  /** A gap between checks longer than this means the worker was not running in between. */
  static final Duration STALL = Duration.ofSeconds(2);

  private final long timeoutNanos;
  private final LongSupplier nanoTime;
  private boolean armed;
  private long renewedAt;
  private StallWatch checks;
  private long stallNanos;

  Lease(Duration timeout) {
    this(timeout, System::nanoTime);
  }

  Lease(Duration timeout, LongSupplier nanoTime) {
    this.timeoutNanos = timeout.toNanos();
    this.nanoTime = nanoTime;
  }

  /** Starts holding (a run began). */
  synchronized void arm() {
    armed = true;
    renewedAt = nanoTime.getAsLong();
    checks = new StallWatch(STALL, renewedAt);
  }

  /** Stops holding (the run ended normally, or the worker has already stopped it). */
  synchronized void disarm() {
    armed = false;
  }

  synchronized void renew() {
    renewedAt = nanoTime.getAsLong();
  }

  synchronized boolean armed() {
    return armed;
  }

  /**
   * The watchdog's check: true once when the armed lease runs out; it is disarmed by the same call.
   * A stall since the last check is credited to the coordinator, less one check interval.
   */
  synchronized boolean expire() {
    if (!armed) {
      return false;
    }
    long now = nanoTime.getAsLong();
    long stall = checks.tick(now);
    if (stall > 0) {
      stallNanos = stall;
      renewedAt = Math.min(now, renewedAt + stall - CHECK_EVERY.toNanos());
    }
    if (now - renewedAt > timeoutNanos) {
      armed = false;
      return true;
    }
    return false;
  }

  /** The last stall {@link #expire()} credited, once; zero when there was none since. */
  synchronized Duration takeStall() {
    Duration stall = Duration.ofNanos(stallNanos);
    stallNanos = 0;
    return stall;
  }

  Duration timeout() {
    return Duration.ofNanos(timeoutNanos);
  }
}
