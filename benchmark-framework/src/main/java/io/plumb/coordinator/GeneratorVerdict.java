package io.plumb.coordinator;

import io.plumb.bottleneck.BottleneckVerdict;
import io.plumb.bottleneck.ScheduleEvidence;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether the load generator, rather than the broker, limited the run. A result whose producers
 * could not keep to their schedule does not measure the broker at the target rate, and says so.
 *
 * <p>Who limited the rate is the {@link BottleneckVerdict}, decided exactly as for a search probe.
 * One question is a single run's own: whether producers that kept the rate sent so late that the
 * latency tail is partly the generator's lateness (send delay p99 over 1 ms and a quarter or more
 * of the publish latency p99, while send() did not hold the threads: then the lateness is this
 * host's, not the broker's pushing back).
 *
 * @param reasons empty when the generator kept up
 * @param bottleneck who limited the rate, with the figures that decided it
 */
public record GeneratorVerdict(List<String> reasons, BottleneckVerdict bottleneck) {
  /**
   * Send delay matters once its p99 exceeds this and is a large share of the publish latency p99:
   * then the measured tail is partly the generator's own lateness, not the broker's.
   */
  static final double MATERIAL_SEND_DELAY_NANOS = 1_000_000;

  static final double MATERIAL_SHARE_OF_PUBLISH_P99 = 0.25;

  /** For runs with nothing to judge (consumer-only, or nothing measured). */
  static final GeneratorVerdict NOT_JUDGED = new GeneratorVerdict(List.of(), null);

  public GeneratorVerdict {
    reasons = List.copyOf(reasons);
  }

  public boolean generatorBound() {
    return !reasons.isEmpty();
  }

  /**
   * The verdict from the run's totals alone, with no lag figure or host sample: a shortfall of the
   * rate decides by itself.
   *
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
    double achieved = seconds > 0 ? sent / seconds : 0;
    return judge(
        new ScheduleEvidence(
            targetRate,
            achieved,
            achieved,
            -1,
            0,
            sendDelayP99Nanos,
            sendThreadShare,
            Double.NaN,
            Double.NaN),
        publishP99Nanos);
  }

  static GeneratorVerdict judge(ScheduleEvidence evidence, long publishP99Nanos) {
    BottleneckVerdict bottleneck = BottleneckVerdict.judge(evidence);
    if (bottleneck.kind() == BottleneckVerdict.Kind.GENERATOR_BOUND) {
      return new GeneratorVerdict(List.of(bottleneck.reason()), bottleneck);
    }
    long sendDelayP99 = evidence.sendDelayP99Nanos();
    if (bottleneck.keptSchedule()
        && evidence.sendThreadShare() <= BottleneckVerdict.CLIENT_HELD_SHARE
        && sendDelayP99 > MATERIAL_SEND_DELAY_NANOS
        && sendDelayP99 > MATERIAL_SHARE_OF_PUBLISH_P99 * publishP99Nanos) {
      String late =
          String.format(
              "producers kept the rate but sent late: send delay p99 %.2f ms is %.0f%% of the publish latency p99 (%.2f ms), so that tail is partly the generator's.",
              sendDelayP99 / 1e6,
              100.0 * sendDelayP99 / Math.max(1, publishP99Nanos),
              publishP99Nanos / 1e6);
      Map<String, Double> figures = new LinkedHashMap<>(bottleneck.figures());
      figures.put("publishP99Ms", publishP99Nanos / 1e6);
      return new GeneratorVerdict(
          List.of(late),
          new BottleneckVerdict(BottleneckVerdict.Kind.GENERATOR_BOUND, late, figures));
    }
    return new GeneratorVerdict(List.of(), bottleneck);
  }
}
