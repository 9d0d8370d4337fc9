package io.plumb.cli;

import io.plumb.fault.BeforeFirstFault;
import io.plumb.fault.FaultOutcome;

/** One console line per fault: what was hit, and what it cost. */
final class FaultLines {
  private FaultLines() {}

  /** What no fault caused: with every fault's line, these add up to the run's counters. */
  static String beforeFirstFault(BeforeFirstFault before) {
    return String.format(
        "Fault -      before the first fault (warm-up included) | acknowledged then lost %,d | publish failures %,d | slower than the stall limit %,d | duplicated %,d | out of order %,d",
        before.acknowledgedLost(),
        before.publishFailures(),
        before.slowPublishes(),
        before.duplicates(),
        before.outOfOrder());
  }

  static String describe(FaultOutcome fault) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                "Fault %-6d %s %s",
                fault.index(),
                fault.action(),
                (fault.nodes().size() == 1 ? "node " : "nodes ")
                    + String.join(", ", fault.nodes())));
    if (fault.leaderMeaning() != null && !fault.nodes().isEmpty()) {
      line.append(" (")
          .append(fault.target())
          .append(": ")
          .append(fault.leaderMeaning())
          .append(')');
    } else if (fault.nodes().isEmpty()) {
      line.setLength(line.length() - "nodes ".length());
      line.append(fault.target());
    }
    if (fault.appliedSeconds() == null) {
      return line.append(" | not applied: ").append(fault.error()).toString();
    }
    line.append(String.format(" at %.2f s", fault.appliedSeconds()));
    if (fault.undoneSeconds() != null) {
      line.append(String.format(", undone at %.2f s", fault.undoneSeconds()));
    }
    line.append(" | unavailable ");
    if (fault.unavailableSeconds() == null) {
      line.append("never");
    } else {
      line.append(String.format("%.2f s", fault.unavailableSeconds()));
      if (!fault.availableAgain()) {
        line.append(" (not available again by the end)");
      }
    }
    line.append(" | recovered ")
        .append(
            fault.recoverySeconds() == null
                ? "no (not back within 10% before the next fault or the end)"
                : String.format("after %.1f s", fault.recoverySeconds()));
    if (fault.recoveryBaselineRate() != null) {
      line.append(
          String.format(
              " (baseline: median of the seconds before the first fault, %,.0f msg/s, end-to-end p99 %.1f ms)",
              fault.recoveryBaselineRate(), fault.recoveryBaselineP99Seconds() * 1e3));
    }
    line.append(
        String.format(
            " | acknowledged then lost %,d | publish failures %,d | slower than the stall limit %,d | longest publish %.2f s | duplicated %,d | out of order %,d",
            fault.acknowledgedLost(),
            fault.publishFailures(),
            fault.slowPublishes(),
            fault.longestPublishSeconds(),
            fault.duplicates(),
            fault.outOfOrder()));
    if (fault.error() != null) {
      line.append(" | error: ").append(fault.error());
    }
    return line.toString();
  }
}
