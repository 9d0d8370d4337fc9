package io.plumb.coordinator;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether the load generator, rather than the broker, limited the run. A result whose producers
 * could not keep to their schedule does not measure the broker at the target rate, and says so.
 *
 * @param reasons empty when the generator kept up
 */
public record GeneratorVerdict(List<String> reasons) {
  /** Producers may trail their schedule by this much before the run counts as generator-bound. */
  static final double TOLERATED_LAG_SECONDS = 0.010;

  /** Achieved send rate below this share of the target marks the run generator-bound. */
  static final double TOLERATED_RATE_SHORTFALL = 0.01;

  public boolean generatorBound() {
    return !reasons.isEmpty();
  }

  /**
   * @param targetRate messages per second asked for
   * @param sent messages sent during the measured phase
   * @param seconds length of the measured phase
   * @param maxLagMessages most scheduled-but-unsent messages seen at a period end
   * @param sendThreadShare fraction of producer-thread time spent inside drivers' send()
   */
  static GeneratorVerdict judge(
      double targetRate, long sent, double seconds, long maxLagMessages, double sendThreadShare) {
    List<String> reasons = new ArrayList<>();
    double achieved = seconds > 0 ? sent / seconds : 0;
    String blocking =
        sendThreadShare > 0.5
            ? String.format(
                " Producer threads spent %.0f%% of their time inside the driver's send(): the client held them (broker backpressure or client limits).",
                sendThreadShare * 100)
            : "";
    if (achieved < targetRate * (1 - TOLERATED_RATE_SHORTFALL)) {
      reasons.add(
          String.format(
              "producers sent %.0f msg/s, %.1f%% below the target of %.0f msg/s.%s",
              achieved, 100 * (1 - achieved / targetRate), targetRate, blocking));
    }
    double lagSeconds = maxLagMessages / targetRate;
    if (lagSeconds > TOLERATED_LAG_SECONDS && reasons.isEmpty()) {
      reasons.add(
          String.format(
              "producers fell up to %.1f ms (%d messages) behind their schedule; latency from the intended send time includes that wait.%s",
              lagSeconds * 1000, maxLagMessages, blocking));
    }
    return new GeneratorVerdict(List.copyOf(reasons));
  }
}
