package io.plumb.coordinator;

import io.plumb.stats.PeriodStats;
import java.time.Duration;
import java.util.function.LongPredicate;

/**
 * Runs a phase of load as a series of periods: at each period's end it harvests the workers'
 * figures into the run's measurement and tells the listener. Warm-up, measurement and the backlog's
 * build and drain are all periods of this loop.
 */
final class PeriodLoop {

  /** What one phase (or part of one) measured, for the backlog figures. */
  record Tally(double seconds, long sent, long received, long lastBacklog, boolean conditionMet) {}

  private final RunContext run;
  private final Duration period;

  // When the last period was taken (System.nanoTime()), -1 before the first.
  private long lastTaken = -1;

  PeriodLoop(RunContext run) {
    this.run = run;
    this.period = run.options().periodFor(run.workload().testDuration());
  }

  /**
   * Where the next phase starts ({@code System.nanoTime()}): where the last period was taken, or
   * now when none was, fixed from this call on.
   */
  long nextPhaseStart() {
    if (lastTaken < 0) {
      lastTaken = System.nanoTime();
    }
    return lastTaken;
  }

  /** Runs {@code phase} for {@code length}; a zero length runs nothing. */
  void timed(Phase phase, Duration length) {
    if (length.isZero()) {
      return;
    }
    run.step(phase.label() + " for " + RunContext.seconds(length) + " s");
    run(phase, length, null);
  }

  /**
   * Runs periods until {@code length} has passed or, when {@code until} is given, until it holds
   * for the backlog (polled every 100 ms between periods: acknowledged messages not yet received).
   */
  Tally run(Phase phase, Duration length, LongPredicate until) {
    // What the workers record from the previous period's end on lands in this phase's first
    // period, so the phase starts there: the time between two phases (the listeners' work at the
    // previous one's end, announcing this one) is time the open-loop schedule went on sending in,
    // and left out it would raise the first period's rates.
    long phaseStart = lastTaken >= 0 ? lastTaken : System.nanoTime();
    long phaseEnd = phaseStart + length.toNanos();
    long periodStart = phaseStart;
    long sent = 0;
    long received = 0;
    long lastBacklog = 0;
    boolean met = false;
    while (periodStart < phaseEnd && !met) {
      long periodEnd = Math.min(phaseEnd, periodStart + period.toNanos());
      boolean stop;
      if (until == null) {
        stop =
            run.abortSignal()
                .waitOrAbort(Duration.ofNanos(Math.max(0, periodEnd - System.nanoTime())));
      } else {
        stop = false;
        while (!stop && System.nanoTime() < periodEnd) {
          lastBacklog = DeliveryCount.outstanding(run.findings().plan(), run.worker().totals());
          if (until.test(lastBacklog)) {
            met = true;
            break;
          }
          stop =
              run.abortSignal()
                  .waitOrAbort(
                      Duration.ofNanos(
                          Math.max(0, Math.min(100_000_000L, periodEnd - System.nanoTime()))));
        }
      }
      PeriodStats stats = run.worker().takePeriod();
      sent += stats.sent();
      received += stats.received();
      long lag = run.worker().scheduleLag();
      long now = System.nanoTime();
      lastTaken = now;
      double periodSeconds = (now - periodStart) / 1e9;
      long backlog = run.measurement().add(phase, stats, periodSeconds);
      run.listener()
          .period(
              new PeriodProgress(
                  phase,
                  (now - phaseStart) / 1e9,
                  RunContext.seconds(length),
                  stats,
                  periodSeconds,
                  backlog,
                  lag));
      periodStart = now;
      if (stop) {
        throw new RunException(run.abortSignal().abortReason());
      }
    }
    return new Tally((System.nanoTime() - phaseStart) / 1e9, sent, received, lastBacklog, met);
  }
}
