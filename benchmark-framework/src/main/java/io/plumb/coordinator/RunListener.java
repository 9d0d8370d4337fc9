package io.plumb.coordinator;

import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;

/** Told what a run is doing, for progress on the console (or nothing, in tests). */
public interface RunListener {
  RunListener SILENT = new RunListener() {};

  default void step(String message) {}

  /**
   * A phase begins, on the run's clock: warm-up once load starts, measure once the warm-up's
   * figures are set aside (the backlog build and drain belong to it), drain once load stops.
   * Actions timed from a phase's start (faults, resource sampling) listen here.
   */
  default void phaseStarted(Phase phase) {}

  /**
   * @param elapsedSeconds time into the phase
   * @param phaseSeconds the phase's planned length
   * @param backlog messages sent but not yet received by every subscription
   * @param lagMessages scheduled messages the producers have not sent yet
   */
  default void period(
      Phase phase,
      double elapsedSeconds,
      double phaseSeconds,
      PeriodStats stats,
      double periodSeconds,
      long backlog,
      long lagMessages) {}

  default void finished(RunReport report) {}
}
