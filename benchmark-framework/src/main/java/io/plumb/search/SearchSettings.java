package io.plumb.search;

import java.time.Duration;

/**
 * How a search probes.
 *
 * @param startRate the first probe's rate, msg/s
 * @param growthFactor the rate multiplies by this after each sustained probe until one fails; the
 *     rate divides by its square after a failed first probe
 * @param precision the search stops once the lowest failed rate is within this fraction above the
 *     highest sustained one (0.05: within 5%)
 * @param minRate below this the search gives up and says no rate was sustained
 * @param maxRate the search never probes above this (for an SLO search, the workload's rate)
 * @param probeWarmup each probe's warm-up, measured and discarded
 * @param probeDuration each probe's measured part
 * @param maxSteps a bound on the number of probes
 */
public record SearchSettings(
    double startRate,
    double growthFactor,
    double precision,
    double minRate,
    double maxRate,
    Duration probeWarmup,
    Duration probeDuration,
    int maxSteps) {

  /**
   * 1,000 msg/s doubling, 5% precision, probes of 1 s warm-up and 15 s measured. Short probes
   * measure what a broker absorbs in memory: Kafka on a 2-core VM passed 6 s probes at 360,000
   * msg/s of 1 KB (350 MB/s, taken by the page cache) and held none of 360,000, 345,000 or 329,000
   * for 30 s, once the kernel began throttling writers at its dirty-page limit (a few GB, 10 to 15
   * s of such writes); two searches with 6 s probes found 362,000 and 279,000.
   */
  public static SearchSettings defaults() {
    return new SearchSettings(
        1000, 2, 0.05, 10, 1e9, Duration.ofSeconds(1), Duration.ofSeconds(15), 40);
  }

  public SearchSettings withStartRate(double rate) {
    return new SearchSettings(
        rate, growthFactor, precision, minRate, maxRate, probeWarmup, probeDuration, maxSteps);
  }

  public SearchSettings withMaxRate(double rate) {
    return new SearchSettings(
        startRate, growthFactor, precision, minRate, rate, probeWarmup, probeDuration, maxSteps);
  }

  public SearchSettings withProbe(Duration warmup, Duration measured) {
    return new SearchSettings(
        startRate, growthFactor, precision, minRate, maxRate, warmup, measured, maxSteps);
  }

  public SearchSettings withPrecision(double value) {
    return new SearchSettings(
        startRate, growthFactor, value, minRate, maxRate, probeWarmup, probeDuration, maxSteps);
  }
}
