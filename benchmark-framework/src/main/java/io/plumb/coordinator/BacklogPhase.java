package io.plumb.coordinator;

import io.plumb.input.BadInputException;
import io.plumb.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * OMB's backlog test: consumers pause while producers keep their rate until the backlog (messages
 * acknowledged but not received, summed over subscriptions) reaches {@code consumerBacklogSizeGB};
 * then consumers resume and drain it down to {@code (1 - backlogDrainRatio)} of the target (at
 * least 1,000 messages). Both steps have deadlines, so a backlog that cannot be built or drained
 * ends the run with a reason instead of hanging. A consumer-only workload stops the producers
 * before the drain.
 */
public final class BacklogPhase {

  private BacklogPhase() {}

  /** A backlog workload on a driver that cannot pause consumers fails before any load. */
  static void checkConsumersPause(RunContext run) {
    try {
      run.worker().pauseConsumers();
      run.worker().resumeConsumers();
    } catch (UnsupportedOperationException e) {
      throw new BadInputException(
          refusal(run.workload().file(), run.findings().driverName(), e.getMessage()));
    }
  }

  /**
   * The one line refusing a backlog workload on a driver that says {@code why} it cannot pause;
   * public for the driver test kit, which checks drivers' refusals against it.
   */
  public static String refusal(Path workload, String driverName, String why) {
    return workload
        + ": field 'consumerBacklogSizeGB': driver "
        + driverName
        + " cannot pause consumers, which building a backlog needs ("
        + why
        + "); use 0 or another driver";
  }

  /**
   * Builds and drains the backlog; {@code outcome} hears how it went, also when it failed, before
   * the failure is thrown.
   */
  static void run(RunContext run, PeriodLoop periods, Consumer<BacklogOutcome> outcome) {
    Workload workload = run.workload();
    long target = workload.backlogMessages();
    double fillRate = workload.producerRate() * workload.subscriptionsPerTopic();
    Duration buildLimit = Duration.ofSeconds(30 + (long) Math.ceil(2 * target / fillRate));
    run.step(
        String.format(
            "backlog: consumers paused until %,d messages (%.3f GB) wait, at most %d s",
            target, workload.consumerBacklogSizeGB(), buildLimit.toSeconds()));
    run.worker().pauseConsumers();
    PeriodLoop.Tally build = periods.run(Phase.MEASURE, buildLimit, backlog -> backlog >= target);
    long floor = Math.max(1000, (long) ((1 - workload.backlogDrainRatio()) * target));
    if (!build.conditionMet()) {
      outcome.accept(outcome(workload, target, floor, build, null));
      run.worker().resumeConsumers();
      throw new RunException(
          String.format(
              "backlog build: %,d of %,d messages after %d s; producers could not build the backlog in time",
              build.lastBacklog(), target, buildLimit.toSeconds()));
    }
    if (workload.consumerOnly()) {
      run.step("backlog built: producers stop, consumers drain it");
      run.worker().stopLoad();
    }
    Duration drainLimit = Duration.ofSeconds(60 + (long) Math.ceil(5 * build.seconds()));
    run.step(
        String.format(
            "backlog built in %.1f s: consumers resume and drain it to %,d messages, at most %d s",
            build.seconds(), floor, drainLimit.toSeconds()));
    run.worker().resumeConsumers();
    PeriodLoop.Tally drain = periods.run(Phase.MEASURE, drainLimit, backlog -> backlog <= floor);
    double drainSeconds = Math.max(drain.seconds(), 1e-9);
    outcome.accept(outcome(workload, target, floor, build, drain));
    if (!drain.conditionMet()) {
      throw new RunException(
          String.format(
              "backlog drain: %,d messages still waiting after %d s (drain target %,d); consumers could not drain the backlog in time",
              drain.lastBacklog(), drainLimit.toSeconds(), floor));
    }
    run.step(
        String.format(
            "backlog drained in %.1f s at %,.0f msg/s received",
            drain.seconds(), drain.received() / drainSeconds));
  }

  /** The build's figures, and the drain's once it ran ({@code drain} null: it never started). */
  private static BacklogOutcome outcome(
      Workload workload, long target, long floor, PeriodLoop.Tally build, PeriodLoop.Tally drain) {
    double drainSeconds = drain == null ? 0 : Math.max(drain.seconds(), 1e-9);
    return new BacklogOutcome(
        target,
        workload.consumerBacklogSizeGB(),
        build.seconds(),
        build.sent() / build.seconds(),
        build.lastBacklog(),
        floor,
        drain == null ? 0 : drain.seconds(),
        drain == null ? 0 : drain.received() / drainSeconds,
        drain == null ? 0 : (build.lastBacklog() - drain.lastBacklog()) / drainSeconds,
        workload.consumerOnly(),
        drain != null && drain.conditionMet());
  }
}
