package io.plumb.fault;

import io.plumb.stats.PeriodStats;
import io.plumb.stats.PublishTimeline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Turns what a run recorded into one {@link FaultOutcome} per fault. Each applied fault owns the
 * messages due from its time (less the stall threshold, since a message sent just before a crash
 * stalls too) until the next fault's: their failures, stalls and losses are its own.
 *
 * <ul>
 *   <li>Unavailability starts at the first of those messages that failed or stalled (never before
 *       the fault) and ends with the first acknowledgement of a message due in a later slice.
 *   <li>Recovery ends at the start of the first period, after the fault, that with the period after
 *       it has consumer throughput within 10% of the mean before the first fault and an end-to-end
 *       p99 no more than 10% (and at least 1 ms) above the highest one-period p99 seen before it.
 *       The highest, not the p99 of the whole stretch: one second's p99 swings with the host, and a
 *       level that a healthy second before the fault did not keep would call the run unrecovered
 *       for noise.
 * </ul>
 */
public final class FaultAnalysis {
  /** How close to the pre-fault level counts as recovered. */
  static final double TOLERANCE = 0.10;

  /** p99 noise at sub-millisecond latencies is larger than 10%: this much above always passes. */
  static final long P99_SLACK_NANOS = 1_000_000L;

  /** A measured period on the run's clock. */
  public record Period(long start, long end, PeriodStats stats) {
    double rate() {
      return end > start ? stats.received() / ((end - start) / 1e9) : 0;
    }
  }

  private FaultAnalysis() {}

  /**
   * @param measureStart the start of the measured phase on the run's clock
   * @param periods the measured periods, in order
   * @param drainDuplicates duplicates received after the last period (during the drain)
   */
  public static List<FaultOutcome> outcomes(
      FaultPlan plan,
      List<FaultRecord> records,
      long measureStart,
      PublishTimeline.Snapshot timeline,
      List<Period> periods,
      long drainDuplicates,
      long drainOutOfOrder) {
    List<FaultRecord> applied =
        records.stream()
            .filter(FaultRecord::applied)
            .sorted(Comparator.comparingLong(FaultRecord::appliedAt))
            .toList();
    Baseline baseline = baseline(applied, periods);
    List<FaultOutcome> outcomes = new ArrayList<>();
    for (FaultRecord record : records) {
      if (!record.applied()) {
        outcomes.add(notApplied(record));
        continue;
      }
      int position = applied.indexOf(record);
      long lookback = plan.stallAfter().toNanos();
      long from = position == 0 ? Long.MIN_VALUE : record.appliedAt() - lookback;
      long until =
          position + 1 < applied.size()
              ? applied.get(position + 1).appliedAt() - lookback
              : Long.MAX_VALUE;
      boolean last = position == applied.size() - 1;
      FaultOutcome outcome =
          outcome(
              record,
              measureStart,
              timeline,
              periods,
              baseline,
              from,
              until,
              lookback,
              last ? drainDuplicates : 0,
              last ? drainOutOfOrder : 0);
      outcomes.add(withUnavailability(outcome, record, applied, position, timeline, measureStart));
    }
    return outcomes;
  }

  /** Adds the per-partition and per-producer figures (see {@link UnavailabilityAnalysis}). */
  private static FaultOutcome withUnavailability(
      FaultOutcome outcome,
      FaultRecord record,
      List<FaultRecord> applied,
      int position,
      PublishTimeline.Snapshot timeline,
      long measureStart) {
    long at = record.appliedAt();
    long next =
        position + 1 < applied.size() ? applied.get(position + 1).appliedAt() : Long.MAX_VALUE;
    long recoveredAt =
        outcome.recoverySeconds() == null
            ? Long.MAX_VALUE
            : at + (long) (outcome.recoverySeconds() * 1e9);
    return outcome.withUnavailability(
        UnavailabilityAnalysis.of(
            timeline.outages(), measureStart, at, next, applied.get(0).appliedAt(), recoveredAt));
  }

  private static FaultOutcome outcome(
      FaultRecord record,
      long measureStart,
      PublishTimeline.Snapshot timeline,
      List<Period> periods,
      Baseline baseline,
      long from,
      long until,
      long lookback,
      long extraDuplicates,
      long extraOutOfOrder) {
    long applied = record.appliedAt();
    int first = from == Long.MIN_VALUE ? 0 : timeline.sliceOf(from);
    int end = until == Long.MAX_VALUE ? timeline.slices() : timeline.sliceOf(until);
    long failures = 0;
    long slow = 0;
    long lost = 0;
    long longest = 0;
    for (int s = first; s < end; s++) {
      failures += timeline.failed()[s];
      slow += timeline.stalled()[s];
      lost += timeline.lost()[s];
      longest = Math.max(longest, timeline.slowest()[s]);
    }
    Double unavailable = null;
    boolean availableAgain = true;
    int bad = -1;
    for (int s = Math.max(first, timeline.sliceOf(applied - lookback)); s < end && bad < 0; s++) {
      if (timeline.failed()[s] > 0 || timeline.stalled()[s] > 0) {
        bad = s;
      }
    }
    if (bad >= 0) {
      long start = Math.max(applied, timeline.sliceStart(bad));
      long back = Long.MAX_VALUE;
      for (int s = bad + 1; s < timeline.slices(); s++) {
        long ack = timeline.firstAck()[s];
        if (ack != Long.MAX_VALUE && ack > start) {
          back = Math.min(back, ack);
          if (timeline.sliceStart(s) > back) {
            break; // later slices were due after it: none can be acknowledged earlier
          }
        }
      }
      if (back == Long.MAX_VALUE) {
        availableAgain = false;
        long lastDue = timeline.slices() == 0 ? start : timeline.sliceStart(timeline.slices());
        unavailable = Math.max(0, lastDue - start) / 1e9;
      } else {
        unavailable = (back - start) / 1e9;
      }
    }
    long duplicates = extraDuplicates;
    long outOfOrder = extraOutOfOrder;
    for (Period period : periods) {
      boolean mine =
          period.end() > applied && (until == Long.MAX_VALUE || period.start() < until + lookback);
      if (mine) {
        duplicates += period.stats().duplicates();
        outOfOrder += period.stats().outOfOrder();
      }
    }
    Double recovery =
        recovery(
            applied,
            until == Long.MAX_VALUE ? Long.MAX_VALUE : until + lookback,
            periods,
            baseline);
    FaultSpec spec = record.spec();
    return new FaultOutcome(
        spec.index(),
        spec.action().word(),
        spec.target().toString(),
        record.nodes(),
        record.leaderMeaning(),
        spec.at().toNanos() / 1e9,
        spec.duration().map(d -> d.toNanos() / 1e9).orElse(null),
        (applied - measureStart) / 1e9,
        record.undoneAt() == 0 ? null : (record.undoneAt() - measureStart) / 1e9,
        unavailable,
        availableAgain,
        longest / 1e9,
        recovery,
        failures,
        slow,
        lost,
        duplicates,
        outOfOrder,
        record.error());
  }

  private static Double recovery(
      long applied, long nextFault, List<Period> periods, Baseline baseline) {
    if (baseline == null) {
      return null;
    }
    for (int i = 0; i < periods.size(); i++) {
      Period period = periods.get(i);
      if (period.start() < applied) {
        continue;
      }
      if (period.start() >= nextFault) {
        return null;
      }
      boolean healthy = baseline.healthy(period);
      boolean nextHealthy = i + 1 >= periods.size() || baseline.healthy(periods.get(i + 1));
      if (healthy && nextHealthy) {
        return (period.start() - applied) / 1e9;
      }
    }
    return null;
  }

  /** Mean throughput and highest one-period end-to-end p99 before the first fault. */
  private record Baseline(double rate, long p99) {
    boolean healthy(Period period) {
      if (period.stats().received() == 0) {
        return rate == 0;
      }
      double ratio = period.rate() / rate;
      long p99Now = period.stats().endToEndLatency().getValueAtPercentile(99);
      long allowed = Math.max((long) (p99 * (1 + TOLERANCE)), p99 + P99_SLACK_NANOS);
      return Math.abs(ratio - 1) <= TOLERANCE && p99Now <= allowed;
    }
  }

  private static Baseline baseline(List<FaultRecord> applied, List<Period> periods) {
    if (applied.isEmpty()) {
      return null;
    }
    long firstFault = applied.get(0).appliedAt();
    long highestP99 = 0;
    long received = 0;
    long nanos = 0;
    for (Period period : periods) {
      if (period.end() <= firstFault) {
        highestP99 =
            Math.max(highestP99, period.stats().endToEndLatency().getValueAtPercentile(99));
        received += period.stats().received();
        nanos += period.end() - period.start();
      }
    }
    if (nanos == 0 || received == 0) {
      return null; // no whole period before the first fault: nothing to recover to
    }
    return new Baseline(received / (nanos / 1e9), highestP99);
  }

  private static FaultOutcome notApplied(FaultRecord record) {
    FaultSpec spec = record.spec();
    return new FaultOutcome(
        spec.index(),
        spec.action().word(),
        spec.target().toString(),
        record.nodes(),
        record.leaderMeaning(),
        spec.at().toNanos() / 1e9,
        spec.duration().map(d -> d.toNanos() / 1e9).orElse(null),
        null,
        null,
        null,
        true,
        0,
        null,
        0,
        0,
        0,
        0,
        0,
        record.error());
  }
}
