package io.plumb.coordinator;

import io.plumb.fault.FaultPlan;
import io.plumb.load.Pacing;
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
 * @param faultPlan faults to apply to the local cluster during the measured phase
 * @param pacing how producer threads wait between sends
 */
public record RunOptions(
    Optional<Duration> period,
    boolean keepTopics,
    Duration readinessTimeout,
    Duration drainTimeout,
    Map<String, String> driverOverrides,
    Optional<FaultPlan> faultPlan,
    Pacing pacing) {

  /** A drain ends once consumers received nothing for this long: what is missing then is lost. */
  static final Duration DRAIN_IDLE = Duration.ofSeconds(10);

  /** A run with faults may wait longer for a recovering broker to deliver. */
  static final Duration FAULT_DRAIN_TIMEOUT = Duration.ofSeconds(180);

  public RunOptions(
      Optional<Duration> period,
      boolean keepTopics,
      Duration readinessTimeout,
      Duration drainTimeout,
      Map<String, String> driverOverrides) {
    this(
        period,
        keepTopics,
        readinessTimeout,
        drainTimeout,
        driverOverrides,
        Optional.empty(),
        Pacing.EFFICIENT);
  }

  public static RunOptions defaults() {
    return new RunOptions(
        Optional.empty(), false, Duration.ofSeconds(60), Duration.ofSeconds(30), Map.of());
  }

  public RunOptions withPeriod(Duration value) {
    return new RunOptions(
        Optional.of(value),
        keepTopics,
        readinessTimeout,
        drainTimeout,
        driverOverrides,
        faultPlan,
        pacing);
  }

  public RunOptions withKeepTopics(boolean value) {
    return new RunOptions(
        period, value, readinessTimeout, drainTimeout, driverOverrides, faultPlan, pacing);
  }

  public RunOptions withDrainTimeout(Duration value) {
    return new RunOptions(
        period, keepTopics, readinessTimeout, value, driverOverrides, faultPlan, pacing);
  }

  public RunOptions withDriverOverrides(Map<String, String> value) {
    return new RunOptions(
        period, keepTopics, readinessTimeout, drainTimeout, Map.copyOf(value), faultPlan, pacing);
  }

  public RunOptions withFaultPlan(FaultPlan value) {
    return new RunOptions(
        period,
        keepTopics,
        readinessTimeout,
        drainTimeout,
        driverOverrides,
        Optional.of(value),
        pacing);
  }

  public RunOptions withPacing(Pacing value) {
    return new RunOptions(
        period, keepTopics, readinessTimeout, drainTimeout, driverOverrides, faultPlan, value);
  }

  /** How long consumers may be idle before the drain ends and what is missing counts as lost. */
  Duration drainIdle() {
    return faultPlan.map(FaultPlan::drainIdle).orElse(DRAIN_IDLE);
  }

  /** The drain's bound: longer with faults, where a broker may still be recovering. */
  Duration effectiveDrainTimeout() {
    return faultPlan.isPresent() && drainTimeout.compareTo(FAULT_DRAIN_TIMEOUT) < 0
        ? FAULT_DRAIN_TIMEOUT
        : drainTimeout;
  }

  /**
   * One tenth of the test, between 1 and 10 seconds: short runs still show ten progress lines. With
   * a fault plan, 1 second: recovery is judged period by period.
   */
  public Duration periodFor(Duration testDuration) {
    if (period.isPresent()) {
      return period.get();
    }
    if (faultPlan.isPresent()) {
      return Duration.ofSeconds(1);
    }
    long millis = Math.max(1000, Math.min(10_000, testDuration.toMillis() / 10));
    return Duration.ofMillis(millis);
  }
}
