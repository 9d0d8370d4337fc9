package io.plumb.testkit;

import io.plumb.result.Counters;
import io.plumb.result.PeriodSample;
import io.plumb.result.RunReport;

/** What drivers' fault and power-loss tests read from a result, and how they print it. */
public final class ResultReading {

  private ResultReading() {}

  /**
   * One line for an assertion's message: the driver, its counters, the faults with their figures,
   * what was lost before the first fault, the final read, the errors and why the run is incomplete,
   * if it is.
   */
  public static String summary(RunReport report) {
    return report.driverName()
        + ": "
        + report.counters()
        + ", faults "
        + report.faults()
        + ", before the first fault "
        + report.beforeFirstFault()
        + ", final read "
        + report.finalRead()
        + ", errors "
        + report.errors()
        + (report.complete() ? "" : ", incomplete: " + report.incompleteReason());
  }

  /**
   * Acknowledged messages not yet received at the end of the last one-second period before {@code
   * seconds} into the measured phase, the warm-up included: the run's totals less the measured
   * phase's give the warm-up's.
   */
  public static long acknowledgedNotReceivedBefore(RunReport report, double seconds) {
    Counters whole = report.counters();
    long acknowledged = whole.acknowledged() - report.measured().acknowledged();
    long received =
        whole.received()
            - report.measured().received()
            - (whole.duplicated() - report.measured().duplicates());
    double end = 0;
    for (PeriodSample sample : report.samples()) {
      end += sample.seconds();
      if (end > seconds) {
        break;
      }
      acknowledged += sample.counts().acknowledged();
      received += sample.counts().received() - sample.counts().duplicates();
    }
    return acknowledged - received;
  }
}
