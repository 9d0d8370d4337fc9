package io.plumb.coordinator;

import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;

/** Told what a run is doing, for progress on the console (or nothing, in tests). */
public interface RunListener {
  RunListener SILENT = new RunListener() {};

  default void step(String message) {}

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
