package io.plumb.fault;

import java.util.List;

/**
 * What one fault did to the run, as the result and the console report it. Times are seconds from
 * the start of the measured phase, or lengths in seconds.
 *
 * @param index the entry's position in the plan, from 1
 * @param target as the plan wrote it: leader, followers, random, node N
 * @param nodes the nodes it hit, as the cluster's state files name them
 * @param leaderMeaning what "leader" meant for this broker; null when the target was a node
 * @param appliedSeconds when it was applied; null when it never was (see {@code error})
 * @param undoneSeconds when the node was let go again (thawed, reconnected, up again); null if not
 * @param unavailableSeconds from the first publish that failed or stalled to the first
 *     acknowledgement of a later one; null when no publish failed or stalled
 * @param availableAgain false when publishing had not resumed by the end of the run
 * @param longestPublishSeconds the longest publish latency (from intended send time) of messages
 *     due while this fault was the latest
 * @param recoverySeconds from the fault until consumer throughput was back within 10% of its mean
 *     before the first fault and end-to-end p99 within 10% of the highest one-second p99 before it,
 *     for two periods in a row; null when they were not back before the next fault or the end
 * @param publishFailures sends that failed, of messages due while this fault was the latest
 * @param slowPublishes sends acknowledged later than the plan's stall threshold
 * @param acknowledgedLost messages the broker acknowledged that no consumer received after the
 *     drain, of those due while this fault was the latest
 * @param duplicates deliveries of a message already received, while this fault was the latest
 * @param outOfOrder first deliveries that came after a later message of the same producer and
 *     partition, while this fault was the latest
 * @param error why the action or its undoing failed; null when both worked
 * @param unavailability per partition and per producer, from actual send times, with the goodput
 *     around the fault; null when the fault was not applied
 */
public record FaultOutcome(
    int index,
    String action,
    String target,
    List<String> nodes,
    String leaderMeaning,
    double atSeconds,
    Double durationSeconds,
    Double appliedSeconds,
    Double undoneSeconds,
    Double unavailableSeconds,
    boolean availableAgain,
    double longestPublishSeconds,
    Double recoverySeconds,
    long publishFailures,
    long slowPublishes,
    long acknowledgedLost,
    long duplicates,
    long outOfOrder,
    String error,
    Unavailability unavailability) {

  public FaultOutcome {
    nodes = List.copyOf(nodes);
  }

  /** Without the per-partition figures (a fault not applied, or before they are known). */
  public FaultOutcome(
      int index,
      String action,
      String target,
      List<String> nodes,
      String leaderMeaning,
      double atSeconds,
      Double durationSeconds,
      Double appliedSeconds,
      Double undoneSeconds,
      Double unavailableSeconds,
      boolean availableAgain,
      double longestPublishSeconds,
      Double recoverySeconds,
      long publishFailures,
      long slowPublishes,
      long acknowledgedLost,
      long duplicates,
      long outOfOrder,
      String error) {
    this(
        index,
        action,
        target,
        nodes,
        leaderMeaning,
        atSeconds,
        durationSeconds,
        appliedSeconds,
        undoneSeconds,
        unavailableSeconds,
        availableAgain,
        longestPublishSeconds,
        recoverySeconds,
        publishFailures,
        slowPublishes,
        acknowledgedLost,
        duplicates,
        outOfOrder,
        error,
        null);
  }

  /** This outcome with {@code figures} added. */
  public FaultOutcome withUnavailability(Unavailability figures) {
    return new FaultOutcome(
        index,
        action,
        target,
        nodes,
        leaderMeaning,
        atSeconds,
        durationSeconds,
        appliedSeconds,
        undoneSeconds,
        unavailableSeconds,
        availableAgain,
        longestPublishSeconds,
        recoverySeconds,
        publishFailures,
        slowPublishes,
        acknowledgedLost,
        duplicates,
        outOfOrder,
        error,
        figures);
  }
}
