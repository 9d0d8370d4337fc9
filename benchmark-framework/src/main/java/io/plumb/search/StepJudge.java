package io.plumb.search;

import io.plumb.bottleneck.BottleneckVerdict;
import io.plumb.bottleneck.ScheduleEvidence;
import java.util.Optional;

/**
 * Judges one probe. A rate is sustained when, over the probe's measured part:
 *
 * <ol>
 *   <li>no send failed and no consumer reported an error;
 *   <li>producers kept to their schedule, judged by {@link BottleneckVerdict} exactly as a single
 *       run is: not both under 98% of the target rate and more than 50 ms of messages behind at the
 *       end, no gross send delay (median over 50 ms or p99 over 1 s: a search never accepts a rate
 *       that only "works" by sending late). When they fell behind, the verdict says whether the
 *       host could not generate the load (generator-bound: the producer threads waited for a core
 *       or ran all along), the broker pushed back (send() blocked them, or acknowledgements
 *       slowed), or the evidence was mixed (undecided, judged as the publish side falling behind);
 *   <li>the broker acknowledged at the rate sent: unacknowledged messages did not grow by 2% of the
 *       rate per second or more, with more than 20 ms of messages (and over 20) outstanding at the
 *       end;
 *   <li>consumers kept up: the backlog did not grow by 2% of the delivery rate per second or more,
 *       with more than 20 ms of messages (and over 20) waiting at the end;
 *   <li>for a latency-target search, the target percentile met its limit.
 * </ol>
 *
 * The thresholds are relative to the rate, so the same judge works at 100 msg/s and 1M msg/s.
 */
public final class StepJudge {
  // A backlog that grows by 2% of the rate per second is an ever-growing one; below that, trends
  // over a few seconds are within the jitter of batching brokers. The amount at the end keeps a
  // steady in-flight backlog from tripping the check on noise alone.
  static final double MAX_GROWTH_SHARE_PER_SECOND = 0.02;
  static final double MIN_WORRYING_SECONDS_OF_MESSAGES = 0.02;
  // At low rates a handful of messages in flight is noise, not a trend.
  static final long MIN_WORRYING_MESSAGES = 20;

  private final Optional<LatencyTarget> target;

  public StepJudge(Optional<LatencyTarget> target) {
    this.target = target;
  }

  public StepVerdict judge(ProbeOutcome probe) {
    double rate = probe.targetRate();
    if (probe.failedSends() > 0 || probe.consumerErrors() > 0) {
      return new StepVerdict(
          StepVerdict.Kind.ERRORS,
          String.format(
              "%d send(s) failed and consumers reported %d error(s)",
              probe.failedSends(), probe.consumerErrors()));
    }
    BottleneckVerdict schedule =
        BottleneckVerdict.judge(
            new ScheduleEvidence(
                rate,
                probe.publishRate(),
                probe.acknowledgeRate(),
                probe.scheduleLagAtEnd(),
                probe.sendDelayP50Nanos(),
                probe.sendDelayP99Nanos(),
                probe.producerThreads(),
                probe.workerCpuShare(),
                probe.stealShare()));
    if (!schedule.keptSchedule()) {
      return new StepVerdict(
          switch (schedule.kind()) {
            case GENERATOR_BOUND -> StepVerdict.Kind.GENERATOR_BOUND;
            case UNDECIDED -> StepVerdict.Kind.UNDECIDED;
            default -> StepVerdict.Kind.PUBLISH_BEHIND;
          },
          schedule.reason());
    }
    double worrying = Math.max(MIN_WORRYING_MESSAGES, rate * MIN_WORRYING_SECONDS_OF_MESSAGES);
    if (probe.unacknowledgedSlope() > rate * MAX_GROWTH_SHARE_PER_SECOND
        && probe.publishRate() - probe.acknowledgeRate() > 0
        && probe.unacknowledgedSlope() * probe.seconds() > worrying) {
      return new StepVerdict(
          StepVerdict.Kind.ACKNOWLEDGEMENTS_BEHIND,
          String.format(
              "the broker acknowledged %.0f msg/s of %.0f sent: unacknowledged messages grew by %.0f per second",
              probe.acknowledgeRate(), probe.publishRate(), probe.unacknowledgedSlope()));
    }
    double deliveryRate = rate * probe.subscriptions();
    if (probe.subscriptions() > 0
        && probe.backlogSlope() > deliveryRate * MAX_GROWTH_SHARE_PER_SECOND
        && probe.backlogAtEnd()
            > Math.max(MIN_WORRYING_MESSAGES, deliveryRate * MIN_WORRYING_SECONDS_OF_MESSAGES)) {
      return new StepVerdict(
          StepVerdict.Kind.CONSUMERS_BEHIND,
          String.format(
              "consumers received %.0f msg/s of %.0f due: the backlog grew by %.0f per second to %d",
              probe.consumeRate(), deliveryRate, probe.backlogSlope(), probe.backlogAtEnd()));
    }
    if (target.isPresent()) {
      LatencyTarget goal = target.get();
      if (probe.latencyNanos() < 0 || probe.latencyNanos() > goal.limitNanos()) {
        return new StepVerdict(
            StepVerdict.Kind.LATENCY_TARGET_MISSED,
            String.format(
                "p%s %s latency %.3f ms is above the target %.3f ms",
                trim(goal.percentile()),
                goal.family().label(),
                probe.latencyNanos() / 1e6,
                goal.limitNanos() / 1e6));
      }
      return new StepVerdict(
          StepVerdict.Kind.SUSTAINED,
          String.format(
              "sustained, p%s %s latency %.3f ms meets the target %.3f ms",
              trim(goal.percentile()),
              goal.family().label(),
              probe.latencyNanos() / 1e6,
              goal.limitNanos() / 1e6));
    }
    return new StepVerdict(
        StepVerdict.Kind.SUSTAINED,
        String.format(
            "sustained: sent %.0f, acknowledged %.0f, received %.0f msg/s; send delay p99 %.2f ms",
            probe.publishRate(),
            probe.acknowledgeRate(),
            probe.consumeRate(),
            probe.sendDelayP99Nanos() / 1e6));
  }

  private static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
