package io.plumb.search;

import java.util.Optional;

/**
 * Judges one probe. A rate is sustained when, over the probe's measured part:
 *
 * <ol>
 *   <li>no send failed and no consumer reported an error;
 *   <li>producers kept to their schedule: they did not both send under 98% of the target rate and
 *       end more than 50 ms of messages (and 20) behind it (a producer thread descheduled just
 *       before a period ends shortens the count, but catches up at once; one that cannot keep up
 *       stays behind). Their send delay only fails a probe when it is gross (median over 50 ms or
 *       p99 over 1 s: a search never accepts a rate that only "works" by sending late): on a busy
 *       host a descheduled producer thread delays messages by milliseconds whatever the rate, while
 *       a generator that cannot keep up falls further behind all the time and shows in the rate and
 *       the lag. When producers fell behind while spending at most half their time inside the
 *       driver's send(), the host's CPU was the limit and the step says generator-bound, not
 *       broker-bound;
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
  static final double MIN_SEND_SHARE_OF_TARGET = 0.98;
  static final double MAX_LAG_SECONDS = 0.05;
  static final long MAX_SEND_DELAY_P50_NANOS = 50_000_000;
  static final long MAX_SEND_DELAY_P99_NANOS = 1_000_000_000;
  // A backlog that grows by 2% of the rate per second is an ever-growing one; below that, trends
  // over a few seconds are within the jitter of batching brokers. The amount at the end keeps a
  // steady in-flight backlog from tripping the check on noise alone.
  static final double MAX_GROWTH_SHARE_PER_SECOND = 0.02;
  static final double MIN_WORRYING_SECONDS_OF_MESSAGES = 0.02;
  // At low rates a handful of messages in flight is noise, not a trend.
  static final long MIN_WORRYING_MESSAGES = 20;
  static final double CLIENT_HELD_SHARE = 0.5;

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
    boolean shortOfRate = probe.publishRate() < rate * MIN_SEND_SHARE_OF_TARGET;
    boolean lagging =
        probe.scheduleLagAtEnd() > Math.max(MIN_WORRYING_MESSAGES, rate * MAX_LAG_SECONDS);
    boolean late =
        probe.sendDelayP50Nanos() > MAX_SEND_DELAY_P50_NANOS
            || probe.sendDelayP99Nanos() > MAX_SEND_DELAY_P99_NANOS;
    if ((shortOfRate && lagging) || late) {
      String what =
          String.format(
              "producers fell behind their schedule (sent %.0f of %.0f msg/s, %d messages behind at the end, send delay p50 %.3f ms, p99 %.2f ms)",
              probe.publishRate(),
              rate,
              probe.scheduleLagAtEnd(),
              probe.sendDelayP50Nanos() / 1e6,
              probe.sendDelayP99Nanos() / 1e6);
      if (probe.producerSendShare() <= CLIENT_HELD_SHARE) {
        return new StepVerdict(
            StepVerdict.Kind.GENERATOR_BOUND,
            what
                + String.format(
                    " while their threads spent only %.0f%% of the time in send(): this host could not generate the load",
                    probe.producerSendShare() * 100));
      }
      return new StepVerdict(
          StepVerdict.Kind.PUBLISH_BEHIND,
          what
              + String.format(
                  "; send() held producer threads %.0f%% of the time (broker or client backpressure)",
                  probe.producerSendShare() * 100));
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
