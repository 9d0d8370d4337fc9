package io.plumb.search;

/**
 * One full-duration measurement after a search, at a fixed rate, judged like a probe.
 *
 * @param rate the rate measured, msg/s
 */
public record FinalMeasurement(double rate, ProbeOutcome outcome, StepVerdict verdict) {
  /**
   * Measurements after a search at most: the rate found, then up to four steps down (to 82% of it).
   * Kafka on a 2-core VM, disk-bound, passed 15 s probes 10-15% above what it held for 30 s.
   */
  public static final int MAX_ATTEMPTS = 5;
}
