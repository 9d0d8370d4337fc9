package io.plumb.result;

import io.plumb.stats.PeriodStats;

/** One measured period: what happened, how long it lasted, and the backlog at its end. */
public record PeriodSample(PeriodStats stats, double seconds, long backlog) {}
