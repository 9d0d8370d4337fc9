package io.plumb.search;

/**
 * One full-duration measurement after a search, at a fixed rate, judged like a probe.
 *
 * @param rate the rate measured, msg/s
 */
public record FinalMeasurement(double rate, ProbeOutcome outcome, StepVerdict verdict) {
  /** Measurements after a search at most: the rate found, then up to two steps down. */
  public static final int MAX_ATTEMPTS = 3;
}
