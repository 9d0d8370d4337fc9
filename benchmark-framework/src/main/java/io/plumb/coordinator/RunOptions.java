package io.plumb.coordinator;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How to run, beyond what the workload says.
 *
 * @param period progress and rate-sample interval; empty chooses one from the test duration
 * @param keepTopics leave the run's topics on the broker instead of deleting them
 * @param readinessTimeout how long every subscription may take to receive its first probe
 * @param drainTimeout how long, after load stops, to wait for outstanding sends and deliveries
 * @param driverOverrides {@code --driver-set} values passed to the driver
 */
public record RunOptions(
    Optional<Duration> period,
    boolean keepTopics,
    Duration readinessTimeout,
    Duration drainTimeout,
    Map<String, String> driverOverrides) {

  public static RunOptions defaults() {
    return new RunOptions(
        Optional.empty(), false, Duration.ofSeconds(60), Duration.ofSeconds(30), Map.of());
  }

  public RunOptions withPeriod(Duration value) {
    return new RunOptions(
        Optional.of(value), keepTopics, readinessTimeout, drainTimeout, driverOverrides);
  }

  public RunOptions withKeepTopics(boolean value) {
    return new RunOptions(period, value, readinessTimeout, drainTimeout, driverOverrides);
  }

  public RunOptions withDriverOverrides(Map<String, String> value) {
    return new RunOptions(period, keepTopics, readinessTimeout, drainTimeout, Map.copyOf(value));
  }

  /** One tenth of the test, between 1 and 10 seconds: short runs still show ten progress lines. */
  public Duration periodFor(Duration testDuration) {
    if (period.isPresent()) {
      return period.get();
    }
    long millis = Math.max(1000, Math.min(10_000, testDuration.toMillis() / 10));
    return Duration.ofMillis(millis);
  }
}
