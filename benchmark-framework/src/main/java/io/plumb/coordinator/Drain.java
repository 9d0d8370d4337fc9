package io.plumb.coordinator;

import io.plumb.stats.PeriodStats;
import java.time.Duration;

/**
 * After load stops: waits, bounded by the drain timeout, for outstanding acknowledgements and
 * deliveries, and says how the wait ended, which decides whether missing messages are lost or still
 * in flight. Once every send has completed, consumers that receive nothing for the drain's idle
 * time end it: what is missing then is lost, not in flight.
 */
final class Drain {
  /** Every error line the drain adds starts so; a final read that ran replaces them. */
  static final String ERROR_PREFIX = "drain: ";

  private Drain() {}

  static DeliveryBalance.DrainOutcome run(RunContext run) {
    Measurement measurement = run.measurement();
    Duration timeout = run.options().effectiveDrainTimeout();
    Duration idle = run.options().drainIdle();
    long deadline = System.nanoTime() + timeout.toNanos();
    long lastReceived = -1;
    long lastProgress = System.nanoTime();
    DeliveryBalance.DrainOutcome outcome;
    while (true) {
      measurement.add(Phase.DRAIN, run.worker().takePeriod(), 0);
      PeriodStats whole = measurement.wholeRun();
      if (whole.received() != lastReceived) {
        lastReceived = whole.received();
        lastProgress = System.nanoTime();
      }
      boolean sendsDone = whole.acknowledged() + whole.failed() >= whole.sent();
      // The exact count walks every producer of every subscription: with a million topics, only
      // once the counts say every acknowledged message may have arrived.
      long missing =
          mayBeComplete(whole, run.workload().subscriptionsPerTopic())
              ? DeliveryCount.outstanding(run.findings().plan(), run.worker().totals())
              : -1;
      if (sendsDone && missing == 0) {
        outcome = DeliveryBalance.DrainOutcome.COMPLETE;
        break;
      }
      if (sendsDone && System.nanoTime() - lastProgress > idle.toNanos()) {
        missing = exact(run, missing);
        outcome = DeliveryBalance.DrainOutcome.STALLED;
        run.errors()
            .add(
                String.format(
                    ERROR_PREFIX
                        + "consumers received nothing for %d s with %,d acknowledged delivery(ies) missing, so they count as lost",
                    idle.toSeconds(),
                    missing));
        break;
      }
      if (System.nanoTime() > deadline) {
        missing = exact(run, missing);
        // Stalled by the same idle time that ends a drain whose sends all completed: consumers
        // quiet for less may still deliver (after a fault, a rebalance can take that long).
        long quietNanos = System.nanoTime() - lastProgress;
        boolean stalled = quietNanos > idle.toNanos();
        outcome =
            stalled
                ? DeliveryBalance.DrainOutcome.STALLED
                : DeliveryBalance.DrainOutcome.STILL_RECEIVING;
        run.errors()
            .add(
                String.format(
                    ERROR_PREFIX
                        + "after %d s, %d send(s) had not completed and %d delivery(ies) were missing; %s",
                    timeout.toSeconds(),
                    Math.max(0, whole.sent() - whole.acknowledged() - whole.failed()),
                    missing,
                    stalled
                        ? String.format(
                            "consumers had received nothing for %d s, so they count as lost",
                            quietNanos / 1_000_000_000L)
                        : String.format(
                            "consumers had received nothing for %.1f s, less than the drain's idle"
                                + " time of %d s, so they count as in flight, not lost",
                            quietNanos / 1e9, idle.toSeconds())));
        break;
      }
      if (run.abortSignal().waitOrAbort(Duration.ofMillis(50))) {
        outcome = DeliveryBalance.DrainOutcome.NOT_DRAINED;
        break;
      }
    }
    // The live totals can be ahead of the last snapshot: collect what arrived in between.
    measurement.add(Phase.DRAIN, run.worker().takePeriod(), 0);
    return outcome;
  }

  /**
   * False when some acknowledged message has certainly not arrived: fewer deliveries (duplicates
   * taken out) than acknowledged messages times subscriptions.
   */
  private static boolean mayBeComplete(PeriodStats whole, int subscriptionsPerTopic) {
    return whole.received() - whole.duplicates() >= whole.acknowledged() * subscriptionsPerTopic;
  }

  private static long exact(RunContext run, long missing) {
    return missing >= 0
        ? missing
        : DeliveryCount.outstanding(run.findings().plan(), run.worker().totals());
  }
}
