package io.plumb.fault;

import io.plumb.stats.PeriodStats;
import io.plumb.stats.PublishTimeline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Turns what a run recorded into one {@link FaultOutcome} per fault, and what happened before the
 * first one. The windows never overlap, so the figures add up to the run's own:
 *
 * <ul>
 *   <li>Each applied fault owns the messages due from its application (less the stall threshold: a
 *       message due just before a crash is still in flight when it lands) until the next fault's
 *       window begins: their failures and stalls are its own. Those of messages due before the
 *       first fault's window, warm-up included, belong to no fault ({@link BeforeFirstFault}).
 *   <li>A loss is found long after it happened, so losses are charged differently: a message
 *       acknowledged while a fault was in effect is charged to that fault (its healing may drop
 *       it), and one acknowledged in calm to the next fault, the first thing that could have lost
 *       it. A power loss drops what was acknowledged before it and never synced; charged by due
 *       time alone, that loss read "before the first fault" (5,663 of a run's 5,707 on Kafka) and
 *       the fault's own line showed 44. So each fault's loss window runs from the end of the
 *       previous fault (or from the start, for the first) to the end of its own.
 *   <li>Each one-second period belongs to the fault that was the latest when it ended, so a period
 *       that straddles two faults counts its duplicates and reorderings once; periods that ended
 *       before the first fault belong to no fault.
 * </ul>
 *
 * <p>The figures of each fault:
 *
 * <ul>
 *   <li>Unavailability is the longest window without acknowledgements that the fault's own sends
 *       opened ({@link UnavailabilityAnalysis}): sends from one usual service time before it (in
 *       flight when it landed) until one before the next fault. Each window is one fault's, so an
 *       outage that began under an earlier fault counts for a later one only from the later one's
 *       own sends. Without those figures (nothing sent in the span), it starts at the first of the
 *       fault's messages that failed or stalled (never before the fault) and ends with the first
 *       acknowledgement of a message due in a later slice.
 *   <li>Recovery is judged against the level before the first fault: {@link RecoveryBaseline}.
 * </ul>
 */
public final class FaultAnalysis {
  /**
   * A measured period on the run's clock. Its figures are fetched when read: the coordinator keeps
   * a long run's periods with their histograms encoded (see {@code PeriodSample}), and a list of
   * them all decoded at once would hold what keeping them encoded saved.
   */
  public record Period(long start, long end, Supplier<PeriodStats> figures) {
    public Period(long start, long end, PeriodStats stats) {
      this(start, end, () -> stats);
    }

    PeriodStats stats() {
      return figures.get();
    }

    /**
     * First deliveries a second: a message delivered again (a broker replaying what its consumers
     * had already received) is no sign that they are back, and counted with the rest a backlog
     * replayed twice read as recovered while new messages still arrived at half the rate.
     */
    double rate() {
      return end > start ? firstDeliveries(stats()) / ((end - start) / 1e9) : 0;
    }

    private static long firstDeliveries(PeriodStats stats) {
      return Math.max(0, stats.received() - stats.duplicates());
    }

    /** This period and {@code next} as one: their counts added, their histograms merged. */
    Period through(Period next) {
      return new Period(start, next.end, stats().plus(next.stats()));
    }
  }

  private FaultAnalysis() {}

  /**
   * @param measureStart the start of the measured phase on the run's clock
   * @param timeline the publish timeline, with the run's lost messages counted in it
   * @param periods the measured periods, in order
   * @param drainDuplicates duplicates received after the last period (during the drain)
   */
  public static FaultFigures figures(
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
    long lookback = plan.stallAfter().toNanos();
    RecoveryBaseline baseline =
        applied.isEmpty() ? null : RecoveryBaseline.before(applied.get(0).appliedAt(), periods);
    long[] lossFrom = lossWindowStarts(applied, lookback);
    List<FaultOutcome> outcomes = new ArrayList<>();
    for (FaultRecord record : records) {
      if (!record.applied()) {
        outcomes.add(notApplied(record));
        continue;
      }
      int position = applied.indexOf(record);
      boolean last = position == applied.size() - 1;
      long nextApplied = last ? Long.MAX_VALUE : applied.get(position + 1).appliedAt();
      Window window =
          new Window(
              record.appliedAt() - lookback,
              last ? Long.MAX_VALUE : nextApplied - lookback,
              record.appliedAt(),
              nextApplied);
      long lost =
          lostDueIn(timeline, lossFrom[position], last ? Long.MAX_VALUE : lossFrom[position + 1]);
      FaultOutcome outcome =
          outcome(
              record,
              measureStart,
              timeline,
              periods,
              baseline,
              window,
              lost,
              last ? drainDuplicates : 0,
              last ? drainOutOfOrder : 0);
      outcomes.add(
          withUnavailability(
              outcome, record, applied, position, timeline, measureStart, loadEnd(periods)));
    }
    Window before =
        applied.isEmpty()
            ? new Window(Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE)
            : new Window(
                Long.MIN_VALUE,
                applied.get(0).appliedAt() - lookback,
                Long.MIN_VALUE,
                applied.get(0).appliedAt());
    Tally tally = Tally.of(timeline, before);
    long duplicates = applied.isEmpty() ? drainDuplicates : 0;
    long outOfOrder = applied.isEmpty() ? drainOutOfOrder : 0;
    for (Period period : periods) {
      if (before.ownsPeriodEndingAt(period.end())) {
        PeriodStats stats = period.stats();
        duplicates += stats.duplicates();
        outOfOrder += stats.outOfOrder();
      }
    }
    long lostBefore = applied.isEmpty() ? lostDueIn(timeline, Long.MIN_VALUE, Long.MAX_VALUE) : 0;
    return new FaultFigures(
        outcomes,
        new BeforeFirstFault(tally.failures, tally.slow, lostBefore, duplicates, outOfOrder));
  }

  /**
   * Where each applied fault's loss window starts: the first at the start of the timeline, each
   * later one where the previous fault ended (it was undone), or where its own window starts when
   * that is earlier or the previous fault was never undone.
   */
  private static long[] lossWindowStarts(List<FaultRecord> applied, long lookback) {
    long[] from = new long[applied.size()];
    for (int i = 0; i < applied.size(); i++) {
      long ownWindow = applied.get(i).appliedAt() - lookback;
      if (i == 0) {
        from[i] = Long.MIN_VALUE;
      } else {
        FaultRecord previous = applied.get(i - 1);
        from[i] =
            previous.undoneAt() == 0
                ? ownWindow
                : Math.max(from[i - 1], Math.min(ownWindow, previous.undoneAt()));
      }
    }
    return from;
  }

  /** Acknowledged messages lost, of those due in [{@code from}, {@code until}). */
  private static long lostDueIn(PublishTimeline.Snapshot timeline, long from, long until) {
    Window window = new Window(from, until, from, until);
    long lost = 0;
    for (int s = window.firstSlice(timeline); s < window.endSlice(timeline); s++) {
      lost += timeline.lost()[s];
    }
    return lost;
  }

  /**
   * The stretch a fault owns: messages due in [{@code dueFrom}, {@code dueUntil}), periods that
   * ended in ({@code periodsFrom}, {@code periodsUntil}]. Adjacent faults' windows meet exactly.
   */
  private record Window(long dueFrom, long dueUntil, long periodsFrom, long periodsUntil) {
    int firstSlice(PublishTimeline.Snapshot timeline) {
      return dueFrom == Long.MIN_VALUE ? 0 : timeline.sliceOf(dueFrom);
    }

    int endSlice(PublishTimeline.Snapshot timeline) {
      return dueUntil == Long.MAX_VALUE ? timeline.slices() : timeline.sliceOf(dueUntil);
    }

    boolean ownsPeriodEndingAt(long end) {
      return end > periodsFrom && end <= periodsUntil;
    }
  }

  /** Failures, stalls and the slowest publish of the messages due in a window. */
  private record Tally(long failures, long slow, long longest) {
    static final Tally NONE = new Tally(0, 0, 0);

    static Tally of(PublishTimeline.Snapshot timeline, Window window) {
      long failures = 0;
      long slow = 0;
      long longest = 0;
      for (int s = window.firstSlice(timeline); s < window.endSlice(timeline); s++) {
        failures += timeline.failed()[s];
        slow += timeline.stalled()[s];
        longest = Math.max(longest, timeline.slowest()[s]);
      }
      return new Tally(failures, slow, longest);
    }
  }

  /**
   * Where the load ended: the end of the last measured period (load stops right after it), or
   * {@code Long.MAX_VALUE} without periods.
   */
  private static long loadEnd(List<Period> periods) {
    return periods.isEmpty() ? Long.MAX_VALUE : periods.get(periods.size() - 1).end();
  }

  /** Adds the per-partition and per-producer figures (see {@link UnavailabilityAnalysis}). */
  private static FaultOutcome withUnavailability(
      FaultOutcome outcome,
      FaultRecord record,
      List<FaultRecord> applied,
      int position,
      PublishTimeline.Snapshot timeline,
      long measureStart,
      long loadEnd) {
    long at = record.appliedAt();
    long next =
        position + 1 < applied.size() ? applied.get(position + 1).appliedAt() : Long.MAX_VALUE;
    long recoveredAt =
        outcome.recoverySeconds() == null
            ? Long.MAX_VALUE
            : at + (long) (outcome.recoverySeconds() * 1e9);
    return outcome.withUnavailability(
        UnavailabilityAnalysis.of(
            timeline.outages(),
            measureStart,
            at,
            next,
            applied.get(0).appliedAt(),
            recoveredAt,
            loadEnd));
  }

  private static FaultOutcome outcome(
      FaultRecord record,
      long measureStart,
      PublishTimeline.Snapshot timeline,
      List<Period> periods,
      RecoveryBaseline baseline,
      Window window,
      long lost,
      long extraDuplicates,
      long extraOutOfOrder) {
    long applied = record.appliedAt();
    int first = window.firstSlice(timeline);
    int end = window.endSlice(timeline);
    Tally tally = Tally.of(timeline, window);
    Double unavailable = null;
    boolean availableAgain = true;
    int bad = -1;
    for (int s = first; s < end && bad < 0; s++) {
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
      if (window.ownsPeriodEndingAt(period.end())) {
        PeriodStats stats = period.stats();
        duplicates += stats.duplicates();
        outOfOrder += stats.outOfOrder();
      }
    }
    Double recovery =
        baseline == null ? null : baseline.recoverySeconds(applied, window.periodsUntil(), periods);
    return outcomeOf(
        record,
        (applied - measureStart) / 1e9,
        record.undoneAt() == 0 ? null : (record.undoneAt() - measureStart) / 1e9,
        unavailable,
        availableAgain,
        tally,
        recovery,
        lost,
        duplicates,
        outOfOrder,
        baseline);
  }

  /** A fault that was never applied: no times, nothing measured. */
  private static FaultOutcome notApplied(FaultRecord record) {
    return outcomeOf(record, null, null, null, true, Tally.NONE, null, 0, 0, 0, null);
  }

  /**
   * {@code record}'s fault as its plan entry and the run describe it (what, where, when planned,
   * which nodes, its error), with the figures measured around it; without a {@code baseline}, no
   * recovery baseline.
   */
  private static FaultOutcome outcomeOf(
      FaultRecord record,
      Double appliedSeconds,
      Double undoneSeconds,
      Double unavailableSeconds,
      boolean availableAgain,
      Tally tally,
      Double recoverySeconds,
      long acknowledgedLost,
      long duplicates,
      long outOfOrder,
      RecoveryBaseline baseline) {
    FaultSpec spec = record.spec();
    return new FaultOutcome(
        spec.index(),
        spec.action().word(),
        spec.target().toString(),
        record.nodes(),
        record.leaderMeaning(),
        spec.at().toNanos() / 1e9,
        spec.duration().map(d -> d.toNanos() / 1e9).orElse(null),
        appliedSeconds,
        undoneSeconds,
        unavailableSeconds,
        availableAgain,
        tally.longest() / 1e9,
        recoverySeconds,
        tally.failures(),
        tally.slow(),
        acknowledgedLost,
        duplicates,
        outOfOrder,
        record.error(),
        baseline == null ? null : baseline.rate(),
        baseline == null ? null : baseline.p99() / 1e9,
        null);
  }
}
