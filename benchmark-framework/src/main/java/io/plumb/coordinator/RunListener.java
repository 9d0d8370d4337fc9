package io.plumb.coordinator;

import io.plumb.result.RunReport;

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

  /** A period ended. */
  default void period(PeriodProgress progress) {}

  default void finished(RunReport report) {}
}
