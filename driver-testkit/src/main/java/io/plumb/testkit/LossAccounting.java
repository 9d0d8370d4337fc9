package io.plumb.testkit;

import io.plumb.fault.FaultOutcome;
import io.plumb.result.Counters;
import io.plumb.result.FinalReadFigures;
import io.plumb.result.RunReport;

/**
 * How a fault or power-loss test checks the loss a run counted: against the final read, and against
 * the fault it is charged to. Each failed check throws {@link AssertionError} with {@code summary}
 * (usually {@link ResultReading#summary}) as its message.
 */
public final class LossAccounting {

  private LossAccounting() {}

  /**
   * The final read ran, and lost is exactly what was acknowledged and neither received (duplicates
   * and unacknowledged deliveries aside) nor found by that read.
   */
  public static void assertLostIsWhatTheFinalReadMissed(RunReport report, String summary) {
    FinalReadFigures read = report.finalRead();
    if (!read.ran()) {
      throw new AssertionError("no final read: " + summary);
    }
    Counters c = report.counters();
    long receivedAcknowledged = c.received() - c.duplicated() - c.receivedUnacknowledged();
    long expected = c.acknowledged() - receivedAcknowledged - read.acknowledgedFoundOnlyByRead();
    if (c.lost() != expected) {
      throw new AssertionError(summary + ": expected lost " + expected + " but was " + c.lost());
    }
  }

  /**
   * Every lost message is charged to the run's first fault, however long before it the message was
   * acknowledged, and none to the time before that fault: what a power loss of every node shows.
   */
  public static void assertEveryLossChargedToTheFault(RunReport report, String summary) {
    FaultOutcome fault = report.faults().get(0);
    if (fault.acknowledgedLost() != report.counters().lost()) {
      throw new AssertionError(
          summary
              + ": the fault's "
              + fault.acknowledgedLost()
              + " lost, the run's "
              + report.counters().lost());
    }
    long before = report.beforeFirstFault().acknowledgedLost();
    if (before != 0) {
      throw new AssertionError(summary + ": " + before + " lost before the first fault");
    }
  }
}
