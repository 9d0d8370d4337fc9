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
 * @param unavailableSeconds the longest unavailability of any partition or producer ({@link
 *     Unavailability#headlineSeconds()}: from an actual send until that partition or producer next
 *     acknowledged anything, of the windows this fault's own sends opened) when one went without
 *     acknowledgements longer than its usual slowest publish; null when none did
 * @param availableAgain false when a window the headline counts, the worst partition's or the worst
 *     producer's, was still open at the end ({@link Unavailability#availableAgain()})
 * @param longestPublishSeconds the longest publish latency (from intended send time) of messages
 *     due in this fault's window
 * @param recoverySeconds from the fault until a period whose consumer throughput (first deliveries:
 *     a message delivered again does not count) was back to at least 90% of the baseline and which,
 *     taken as one with the next, had that throughput and an end-to-end p99 within 10% (or 1 ms) of
 *     the baseline ({@link RecoveryBaseline}); null when they were not back before the next fault
 *     or the end
 * @param publishFailures sends that failed, of messages due in this fault's window
 * @param slowPublishes sends acknowledged later than the plan's stall threshold
 * @param acknowledgedLost messages the broker acknowledged and the run counts as lost, of those due
 *     from the end of the previous fault (the start, for the first) to the end of this fault's
 *     window: what this fault or its healing could have lost, a power loss's unsynced writes
 *     included; summed over subscriptions, as the run's own {@code lost}
 * @param duplicates deliveries of a message already received, in periods this fault owns
 * @param outOfOrder first deliveries that reached their consumer after a later message of the same
 *     producer and partition, in periods this fault owns
 * @param error why the action or its undoing failed; null when both worked
 * @param recoveryBaselineRate the median one-second consumer throughput (first deliveries a second)
 *     before the first fault, which recovery is judged against; null when no period preceded it
 * @param recoveryBaselineP99Seconds the end-to-end p99 of every message received before the first
 *     fault
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
    Double recoveryBaselineRate,
    Double recoveryBaselineP99Seconds,
    Unavailability unavailability) {

  public FaultOutcome {
    nodes = List.copyOf(nodes);
  }

  /**
   * The same outcome with the per-partition figures; the headline unavailability becomes the
   * longest window of any partition or producer that went without acknowledgements longer than its
   * usual slowest publish ({@link Unavailability#headlineSeconds()}), so acknowledgements from
   * healthy partitions never end another's outage.
   */
  public FaultOutcome withUnavailability(Unavailability figures) {
    boolean measured = figures != null && figures.measured();
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
        measured ? figures.headlineSeconds() : unavailableSeconds,
        measured ? figures.availableAgain() : availableAgain,
        longestPublishSeconds,
        recoverySeconds,
        publishFailures,
        slowPublishes,
        acknowledgedLost,
        duplicates,
        outOfOrder,
        error,
        recoveryBaselineRate,
        recoveryBaselineP99Seconds,
        figures);
  }
}
