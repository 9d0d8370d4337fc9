package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(15);

  private long now = 1_000_000_000L;
  private final Lease lease = new Lease(TIMEOUT, () -> now);

  /** Runs the watchdog's checks every half second for {@code seconds}; true if one expired it. */
  private boolean checkFor(double seconds) {
    boolean expired = false;
    for (long end = now + (long) (seconds * 1e9); now < end; ) {
      now += Lease.CHECK_EVERY.toNanos();
      expired |= lease.expire();
    }
    return expired;
  }

  @Test
  void runsOutAfterTheTimeoutOfSilenceWhileTheWorkerRuns() {
    lease.arm();
    assertFalse(checkFor(14.5));
    assertTrue(checkFor(1));
    assertFalse(lease.armed());
  }

  @Test
  void aRenewalStartsTheTimeoutAgain() {
    lease.arm();
    assertFalse(checkFor(10));
    lease.renew();
    assertFalse(checkFor(14.5));
    assertTrue(checkFor(1));
  }

  @Test
  void aStallOfTheWorkerItselfIsNotTheCoordinatorsSilence() {
    lease.arm();
    assertFalse(checkFor(1));
    now += Duration.ofSeconds(16).toNanos();
    assertFalse(lease.expire(), "a 16 s freeze of the host must not end the run");
    assertEquals(Duration.ofSeconds(16), lease.takeStall());
    assertEquals(Duration.ZERO, lease.takeStall(), "a stall is told once");
    assertTrue(lease.armed());
  }

  @Test
  void silenceBeforeAndAfterAStallStillCounts() {
    lease.arm();
    assertFalse(checkFor(8));
    now += Duration.ofSeconds(30).toNanos();
    assertFalse(lease.expire());
    // 8 s before the stall and the half second the check was due in: 6.5 s more runs it out.
    assertFalse(checkFor(6));
    assertTrue(checkFor(1));
  }

  @Test
  void aRenewalReadRightAfterAStallIsNotStretchedByTheCredit() {
    lease.arm();
    now += Duration.ofSeconds(20).toNanos();
    lease.renew();
    assertFalse(lease.expire());
    assertFalse(checkFor(14.5));
    assertTrue(checkFor(1), "the credit never moves the renewal past the present");
  }

  @Test
  void aDisarmedLeaseNeverRunsOut() {
    lease.arm();
    lease.disarm();
    assertFalse(checkFor(60));
  }
}
