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
 * of the publish latency p99). Whose lateness it was is decided by the producer threads' time as
 * {@link BottleneckVerdict#threadsSay} rules: the generator's when they waited for a core (or ran
 * all along), not the generator's when send() blocked them (a client that blocks in bursts pushes
 * back; the tail is the broker's to own), undecided when the evidence is mixed.
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

  static GeneratorVerdict judge(ScheduleEvidence evidence, long publishP99Nanos) {
    BottleneckVerdict bottleneck = BottleneckVerdict.judge(evidence);
    if (bottleneck.kind() == BottleneckVerdict.Kind.GENERATOR_BOUND) {
      return new GeneratorVerdict(List.of(bottleneck.reason()), bottleneck);
    }
    long sendDelayP99 = evidence.sendDelayP99Nanos();
    if (!bottleneck.keptSchedule()
        || sendDelayP99 <= MATERIAL_SEND_DELAY_NANOS
        || sendDelayP99 <= MATERIAL_SHARE_OF_PUBLISH_P99 * publishP99Nanos) {
      return new GeneratorVerdict(List.of(), bottleneck);
    }
    BottleneckVerdict.Kind whose = BottleneckVerdict.threadsSay(evidence.threads());
    String late =
        String.format(
            "producers kept the rate but sent late: send delay p99 %.2f ms is %.0f%% of the publish latency p99 (%.2f ms); %s: %s%s.",
            sendDelayP99 / 1e6,
            100.0 * sendDelayP99 / Math.max(1, publishP99Nanos),
            publishP99Nanos / 1e6,
            switch (whose) {
              case GENERATOR_BOUND -> "that tail is partly the generator's";
              case BROKER_PUSHBACK -> "send() blocked, so that tail is the client's and broker's";
              default -> "undecided whose";
            },
            evidence.threads().describe(),
            BottleneckVerdict.hostFigures(evidence));
    Map<String, Double> figures = new LinkedHashMap<>(bottleneck.figures());
    figures.put("publishP99Ms", publishP99Nanos / 1e6);
    BottleneckVerdict.Kind kind =
        whose == BottleneckVerdict.Kind.BROKER_PUSHBACK ? bottleneck.kind() : whose;
    BottleneckVerdict verdict = new BottleneckVerdict(kind, late, figures);
    return new GeneratorVerdict(
        whose == BottleneckVerdict.Kind.GENERATOR_BOUND ? List.of(late) : List.of(), verdict);
  }
}
