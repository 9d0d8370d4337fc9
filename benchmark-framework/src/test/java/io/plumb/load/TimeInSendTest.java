package io.plumb.load;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The time a producer thread spends inside send(), which the bottleneck verdict reads, counts the
 * driver's time and not Plumb's own work, also when the loop sends back to back and times only one
 * send in {@link ProducerLoop#SAMPLE_EVERY} on its own.
 */
@Tag("host-timing")
class TimeInSendTest {
  private static final long SPIN_NANOS = 20_000;

  private static BackToBackLoad.Outcome backToBack(long sendNanos, long millis)
      throws InterruptedException {
    return BackToBackLoad.run(BackToBackLoad.SpinningProducer.taking(sendNanos), millis);
  }

  @Test
  void aSlowSendIsCountedWholeAndNeverMoreThanTheWallTime() throws InterruptedException {
    BackToBackLoad.Outcome run = backToBack(SPIN_NANOS, 1_000);
    assertTrue(run.sent() > SAMPLE_COUNT_AT_LEAST, run.toString());
    // Each send took at least SPIN_NANOS inside send(); the loop cannot have been in send()
    // longer than it ran.
    assertTrue(run.nanosInSend() >= 0.95 * run.sent() * SPIN_NANOS, run.toString());
    assertTrue(run.nanosInSend() <= run.wallNanos(), run.toString());
  }

  @Test
  void anInstantSendLeavesPlumbsOwnWorkOutOfTheTimeInSend() throws InterruptedException {
    BackToBackLoad.Outcome run = backToBack(0, 1_000);
    assertTrue(run.sent() > SAMPLE_COUNT_AT_LEAST, run.toString());
    // Millions of sends that return at once (after reporting their completion): half the loop's
    // time is Plumb's own (header, schedule, clock), which counted as send()'s would put the share
    // near 1 and make the loop look held by a broker. Measured: 0.50 on a 2-core VM. Time the
    // thread spent off its core (a busy host took it) lands mostly inside send()'s readings and
    // is not Plumb's work either: the share is of the time the thread ran.
    assertTrue(
        run.nanosInSend() - run.offCoreNanos() < 0.8 * run.thread().cpuNanos(), run.toString());
  }

  /** Enough sends that one in SAMPLE_EVERY has been timed many times over. */
  private static final long SAMPLE_COUNT_AT_LEAST = 100L * ProducerLoop.SAMPLE_EVERY;
}
