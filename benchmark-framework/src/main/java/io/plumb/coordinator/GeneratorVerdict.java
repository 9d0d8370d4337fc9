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
  /** Achieved send rate below this share of the target marks the run generator-bound. */
  static final double TOLERATED_RATE_SHORTFALL = 0.01;

  /**
   * Send delay matters once its p99 exceeds this and is a large share of the publish latency p99:
   * then the measured tail is partly the generator's own lateness, not the broker's.
   */
  static final double MATERIAL_SEND_DELAY_NANOS = 1_000_000;

  static final double MATERIAL_SHARE_OF_PUBLISH_P99 = 0.25;

  public boolean generatorBound() {
    return !reasons.isEmpty();
  }

  /**
   * @param targetRate messages per second asked for
   * @param sent messages sent during the measured phase
   * @param seconds length of the measured phase
   * @param sendDelayP99Nanos p99 of actual minus intended send time
   * @param publishP99Nanos p99 of publish latency (from the intended send time)
   * @param sendThreadShare fraction of producer-thread time spent inside drivers' send()
   */
  static GeneratorVerdict judge(
      double targetRate,
      long sent,
      double seconds,
      long sendDelayP99Nanos,
      long publishP99Nanos,
      double sendThreadShare) {
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
    } else if (sendDelayP99Nanos > MATERIAL_SEND_DELAY_NANOS
        && sendDelayP99Nanos > MATERIAL_SHARE_OF_PUBLISH_P99 * publishP99Nanos) {
      reasons.add(
          String.format(
              "producers kept the rate but sent late: send delay p99 %.2f ms is %.0f%% of the publish latency p99 (%.2f ms), so that tail is partly the generator's.%s",
              sendDelayP99Nanos / 1e6,
              100.0 * sendDelayP99Nanos / Math.max(1, publishP99Nanos),
              publishP99Nanos / 1e6,
              blocking));
    }
    return new GeneratorVerdict(List.copyOf(reasons));
  }
}
