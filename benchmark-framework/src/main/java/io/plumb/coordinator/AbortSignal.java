package io.plumb.coordinator;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A run's stop from outside (Ctrl-C, a lost worker, a fault plan that cannot go on): the waits of
 * every step end at it, and while topics and clients are being created it interrupts that thread.
 */
final class AbortSignal {
  private final CountDownLatch aborted = new CountDownLatch(1);
  private volatile String abortReason;

  /** The thread creating topics and clients while it does so; null otherwise. */
  private Thread settingUp;

  void abort(String reason) {
    abortReason = reason;
    aborted.countDown();
    synchronized (this) {
      if (settingUp != null) {
        // Creating 400,000 consumers takes minutes: the creation loops stop at the interrupt.
        settingUp.interrupt();
      }
    }
  }

  /**
   * From now until {@link #setUpEnded}, an abort interrupts the calling thread, which is creating
   * topics and clients.
   */
  synchronized void settingUp() {
    settingUp = Thread.currentThread();
    if (abortReason != null) {
      settingUp.interrupt();
    }
  }

  /** Set-up is over: aborts no longer interrupt, and an interrupt that came too late is dropped. */
  synchronized void setUpEnded() {
    if (settingUp != null) {
      settingUp = null;
      Thread.interrupted();
    }
  }

  /** Why the run was stopped from outside; null while it was not. */
  String abortReason() {
    return abortReason;
  }

  /** Waits up to {@code time}; true when the run was aborted. */
  boolean waitOrAbort(Duration time) {
    try {
      return aborted.await(time.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abort("interrupted");
      return true;
    }
  }
}
