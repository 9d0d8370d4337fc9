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
   * The run completed and its first fault applied without an error: what a power-loss test checks
   * before it judges the loss.
   */
  public static RunReport assertCompleteWithFaultApplied(RunReport report) {
    String summary = ResultReading.summary(report);
    if (!report.complete()) {
      throw new AssertionError("incomplete: " + summary);
    }
    String error = report.faults().get(0).error();
    if (error != null) {
      throw new AssertionError("fault failed (" + error + "): " + summary);
    }
    return report;
  }

  /**
   * A durable configuration under a power loss of every node: at least {@code leastAtRisk} messages
   * were acknowledged and not yet received when the power went (so the zero below proves
   * something), none of them or any other was lost, and the final read ran. Prints the figures
   * under {@code label}; returns the messages at risk.
   */
  public static long assertNothingAtRiskLost(RunReport report, long leastAtRisk, String label) {
    String summary = ResultReading.summary(report);
    FaultOutcome fault = report.faults().get(0);
    // Messages the power loss could have taken: acknowledged and not yet received when it came.
    long atRisk = ResultReading.acknowledgedNotReceivedBefore(report, fault.appliedSeconds());
    if (atRisk < leastAtRisk) {
      throw new AssertionError(
          "only "
              + atRisk
              + " at risk at the power loss, expected "
              + leastAtRisk
              + ": "
              + summary);
    }
    if (report.counters().lost() != 0) {
      throw new AssertionError("acknowledged messages lost: " + summary);
    }
    if (!report.finalRead().ran()) {
      throw new AssertionError("no final read: " + summary);
    }
    System.out.println(
        label
            + ", power loss of every node, "
            + atRisk
            + " acknowledged and not received at that moment: "
            + summary);
    return atRisk;
  }

  /**
   * A configuration that leaves writes unsynced, under a power loss of every node: something was
   * lost, every loss is charged to the power loss, and lost is exactly what the final read missed.
   * Prints the figures under {@code label}.
   */
  public static void assertUnsyncedLossCountedExactly(RunReport report, String label) {
    String summary = ResultReading.summary(report);
    if (report.counters().lost() == 0) {
      throw new AssertionError("nothing lost: " + summary);
    }
    // However long before the power loss a lost message was acknowledged, it is the power loss's.
    assertEveryLossChargedToTheFault(report, summary);
    assertLostIsWhatTheFinalReadMissed(report, summary);
    System.out.println(label + ", power loss of every node: " + summary);
  }

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
