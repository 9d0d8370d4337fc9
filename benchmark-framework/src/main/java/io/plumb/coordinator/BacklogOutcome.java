package io.plumb.coordinator;

/**
 * How a backlog workload's build and drain went, for the result.
 *
 * @param targetMessages the backlog asked for ({@code consumerBacklogSizeGB}), in messages summed
 *     over subscriptions
 * @param buildSeconds from pausing the consumers until the backlog reached the target
 * @param buildRateMsgPerSec messages published per second while building
 * @param backlogAtDrainStart the backlog when consumers resumed
 * @param drainFloor the backlog at which the drain counts as done: {@code (1 - backlogDrainRatio)}
 *     of the target, at least 1,000 messages (OMB's rule)
 * @param drainSeconds from resuming the consumers until the backlog fell to the floor
 * @param drainConsumeRateMsgPerSec messages received per second (all subscriptions) while draining
 * @param drainNetRateMsgPerSec how fast the backlog shrank: consumed minus published per second
 * @param consumerOnly producers stopped when the build ended
 * @param completed false when the build or drain ran out of time (the reason is in the result)
 */
public record BacklogOutcome(
    long targetMessages,
    double targetGB,
    double buildSeconds,
    double buildRateMsgPerSec,
    long backlogAtDrainStart,
    long drainFloor,
    double drainSeconds,
    double drainConsumeRateMsgPerSec,
    double drainNetRateMsgPerSec,
    boolean consumerOnly,
    boolean completed) {}
