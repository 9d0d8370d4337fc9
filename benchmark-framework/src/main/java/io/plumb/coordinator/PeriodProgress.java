package io.plumb.coordinator;

import io.plumb.stats.PeriodStats;

/**
 * One period's end as a run's listeners hear of it. Its own type rather than seven arguments: three
 * of them are seconds of different things, easy to pass in the wrong order.
 *
 * @param phase the phase the period belongs to
 * @param elapsedSeconds time into the phase
 * @param phaseSeconds the phase's planned length
 * @param stats the period's figures
 * @param periodSeconds the period's own length
 * @param backlog messages sent but not yet received by every subscription
 * @param lagMessages scheduled messages the producers have not sent yet
 */
public record PeriodProgress(
    Phase phase,
    double elapsedSeconds,
    double phaseSeconds,
    PeriodStats stats,
    double periodSeconds,
    long backlog,
    long lagMessages) {}
