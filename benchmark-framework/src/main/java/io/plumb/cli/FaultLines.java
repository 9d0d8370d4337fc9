package io.plumb.cli;

import io.plumb.fault.BeforeFirstFault;
import io.plumb.fault.FaultOutcome;
import io.plumb.fault.Unavailability;

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
    if (fault.unavailability() != null) {
      line.append(unavailability(fault.unavailability()));
    } else if (fault.unavailableSeconds() == null) {
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
                ? "no (not back to the baseline before the next fault or the end)"
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

  /**
   * The worst partition's and producer's windows without acknowledgement, with their length even
   * when short, the partitions affected, and the lowest goodput around the fault.
   */
  static String unavailability(Unavailability u) {
    StringBuilder text = new StringBuilder();
    if (u.worstPartitionSeconds() == null) {
      text.append("per partition unknown (the driver names no partitions)");
    } else {
      text.append(
          String.format(
              "worst partition %s %.3f s%s, %d partition%s affected (over %.3f s)",
              u.worstPartition(),
              u.worstPartitionSeconds(),
              u.partitionsAvailableAgain() ? "" : " (not available again by the end)",
              u.partitionsAffected(),
              u.partitionsAffected() == 1 ? "" : "s",
              u.affectedAboveSeconds()));
    }
    if (u.worstProducerSeconds() != null) {
      text.append(
          String.format(
              ", worst producer %s %.3f s%s",
              u.worstProducer(),
              u.worstProducerSeconds(),
              u.producerAvailableAgain() ? "" : " (not available again by the end)"));
    }
    text.append(String.format(" (resolution %.3f s)", u.resolutionSeconds()));
    u.goodput().acknowledgedPerSecond().stream()
        .mapToDouble(Double::doubleValue)
        .min()
        .ifPresent(
            lowest ->
                text.append(
                    String.format(
                        ", lowest goodput %,.0f msg/s per %.1f s",
                        lowest, u.goodput().sliceSeconds())));
    return text.toString();
  }
}
