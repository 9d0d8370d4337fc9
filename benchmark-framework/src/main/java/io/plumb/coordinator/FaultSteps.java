package io.plumb.coordinator;

import io.plumb.fault.FaultAnalysis;
import io.plumb.fault.FaultFigures;
import io.plumb.fault.FaultPlan;
import io.plumb.fault.FaultSchedule;
import io.plumb.fault.LeaderSource;
import io.plumb.fault.LocalCluster;
import io.plumb.input.BadInputException;
import io.plumb.result.Counters;
import io.plumb.result.PeriodSample;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.SequenceRanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's fault plan, plugged into its steps: checked against the cluster once the driver is up
 * (before any load), a publish timeline kept from the first send, the schedule started with the
 * measured phase and stopped with the load, the clients closed after the drain, and each fault's
 * outcome read from what was measured.
 */
final class FaultSteps {
  private final RunContext run;
  private final FaultPlan plan;
  private FaultSchedule schedule;
  private boolean started;

  private FaultSteps(RunContext run, FaultPlan plan) {
    this.run = run;
    this.plan = plan;
  }

  static Optional<FaultSteps> of(RunContext run) {
    return run.options().faultPlan().map(plan -> new FaultSteps(run, plan));
  }

  /** After the topics exist: the cluster, the driver and the plan must fit, or nothing runs. */
  void check() {
    try {
      run.worker().clockNow();
    } catch (UnsupportedOperationException e) {
      throw new BadInputException(
          plan.file()
              + ": a fault plan needs the in-process worker (the cluster's state files are on this host); run without --workers");
    }
    String broker = brokerOf(run.findings().driverClass());
    String topic = run.findings().plan().topics().get(0).name();
    LeaderSource leaders =
        new LeaderSource() {
          @Override
          public Map<String, String> targets() {
            return run.worker().nodeTargets();
          }

          @Override
          public Optional<String> locate(String target) {
            return run.worker().locate(target, topic);
          }
        };
    schedule =
        new FaultSchedule(
            plan,
            LocalCluster.of(broker),
            leaders,
            run.worker()::clockNow,
            run::step,
            FaultSchedule.UNDO_WAIT);
    schedule.check(run.workload().testDuration());
    run.step(
        "fault plan "
            + plan.file()
            + ": "
            + String.join("; ", plan.faults().stream().map(f -> f.describe()).toList()));
  }

  /** Before load starts: every send is kept on the publish timeline. */
  void beforeLoad() {
    run.worker().keepPublishTimeline(plan.stallAfter().toNanos());
  }

  /**
   * @param startedAt where the phase's first period began ({@code System.nanoTime()}): the last
   *     period of the phase before it, taken before the listeners' work and this announcement
   */
  void phaseStarted(Phase phase, long startedAt) {
    if (schedule == null) {
      return;
    }
    if (phase == Phase.MEASURE && !started) {
      started = true;
      schedule.start(System.nanoTime() - startedAt);
    } else if (phase == Phase.DRAIN) {
      schedule.loadStopped();
    }
  }

  /** Load has stopped (or the run failed): undo whatever is still in effect. */
  void loadStopped() {
    if (schedule != null && started) {
      schedule.loadStopped();
    }
  }

  /**
   * After the drain, before the run is counted: closes the clients, so that every send a driver
   * still holds completes (each driver fails what is outstanding when it closes) and reaches the
   * figures. Left to the teardown, after the figures, a partition whose sends went unanswered to
   * the end (a client queueing sends for a leader it cannot reach) opened no unavailability window
   * and read as available. The final read closes them at the same point; this covers the runs where
   * it cannot run.
   */
  void closeClients() {
    try {
      run.worker().closeClients(List.of());
    } catch (RuntimeException e) {
      run.errors().add("closing clients after the drain: " + e.getMessage());
    }
  }

  /**
   * Each fault's figures, from the same per-topic sets as the run's {@code counters}: the losses
   * the run counts (none while its missing messages count as in flight) land on the timeline, so
   * the faults' losses and the loss before the first fault add up to the run's.
   */
  FaultFigures figures(Counters counters) {
    if (schedule == null || !started) {
      return FaultFigures.NONE;
    }
    Map<Integer, List<SequenceRanges>> lost = new HashMap<>();
    if (counters.lost() > 0 && counters.inFlight() == 0) {
      DeliveryCount.forEachMissing(
          run.findings().plan(),
          run.worker().totals(),
          (subscription, producer, sequences) ->
              lost.computeIfAbsent(producer, p -> new ArrayList<>()).add(sequences));
    }
    Measurement measurement = run.measurement();
    List<FaultAnalysis.Period> periods = new ArrayList<>();
    long start = schedule.measureStart();
    long duplicates = 0;
    long outOfOrder = 0;
    for (PeriodSample sample : measurement.samples()) {
      long end = start + (long) (sample.seconds() * 1e9);
      periods.add(new FaultAnalysis.Period(start, end, sample::stats));
      PeriodStats stats = sample.counts();
      duplicates += stats.duplicates();
      outOfOrder += stats.outOfOrder();
      start = end;
    }
    PeriodStats measured = measurement.measured();
    FaultFigures figures =
        FaultAnalysis.figures(
            plan,
            schedule.records(),
            schedule.measureStart(),
            run.worker().publishTimeline(lost),
            periods,
            Math.max(0, measured.duplicates() - duplicates),
            Math.max(0, measured.outOfOrder() - outOfOrder));
    return withWarmUp(figures, measurement.wholeRun(), measured);
  }

  /**
   * {@code figures} with the warm-up's duplicates and reorderings before the first fault: the run's
   * counters ({@code whole}) include them, and the analysis sees only the measured and drained
   * periods ({@code measured}).
   */
  static FaultFigures withWarmUp(FaultFigures figures, PeriodStats whole, PeriodStats measured) {
    return new FaultFigures(
        figures.faults(),
        figures
            .beforeFirstFault()
            .plusWarmUp(
                Math.max(0, whole.duplicates() - measured.duplicates()),
                Math.max(0, whole.outOfOrder() - measured.outOfOrder())));
  }

  /** kafka from io.plumb.driver.kafka.KafkaBenchmarkDriver: the deploy script's name. */
  static String brokerOf(String driverClass) {
    String pkg =
        driverClass.contains(".") ? driverClass.substring(0, driverClass.lastIndexOf('.')) : "";
    return pkg.substring(pkg.lastIndexOf('.') + 1);
  }
}
