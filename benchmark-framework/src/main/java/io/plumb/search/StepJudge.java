package io.plumb.search;

import io.plumb.bottleneck.BottleneckVerdict;
import io.plumb.bottleneck.ScheduleEvidence;
import java.time.Duration;
import java.util.Optional;

/**
 * Judges one probe. A rate is sustained when, over the probe's measured part:
 *
 * <ol>
 *   <li>the run completed, no send failed and no consumer reported an error;
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
 *   <li>for a latency-target search, the target percentile met its limit; a miss where the run's
 *       own verdict found the producers' late sends a material part of the tail (see {@code
 *       GeneratorVerdict}) is generator-bound, not the broker's.
 * </ol>
 *
 * The thresholds are relative to the rate, so the same judge works at 100 msg/s and 1M msg/s.
 *
 * <p>A growth counts only if it is more than the rate times the latency's spread ({@link
 * LatencySpread}, p99 - p50): that much the in-flight count moves at a steady rate as latency
 * swings. A broker that syncs in batches (a 3-node cluster on the power-loss layer: p50 0.2 s, p99
 * 0.6 s) fills and drains by hundreds of messages within seconds, and 3 s probes judged rates it
 * then held for 60 s as failing. Growth above the old thresholds but within the swing is {@link
 * StepVerdict.Kind#TOO_SHORT_TO_TELL}: the search probes again for longer. Above capacity by a
 * share e of the rate, the backlog grows by e x rate x T over a probe of T seconds while the swing
 * stays the rate times the steady spread (taken within periods of a sixth of the probe, where the
 * climb adds little): a probe of spread / e seconds tells them apart, and {@link #probeLongEnough}
 * allows twice that.
 */
public final class StepJudge {
  /** The longest probe the search lengthens to when a probe was too short to tell. */
  static final Duration LONGEST_PROBE = Duration.ofSeconds(60);

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
    if (probe.incompleteReason() != null) {
      // Its figures cover only what ran before it stopped (and a failed message count reads lost
      // and in flight as 0): a final measurement cut short must not stand as the stable peak.
      return new StepVerdict(
          StepVerdict.Kind.ERRORS, "the run did not complete: " + probe.incompleteReason());
    }
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
    String unclear = null;
    if (probe.unacknowledgedSlope() > rate * MAX_GROWTH_SHARE_PER_SECOND
        && probe.publishRate() - probe.acknowledgeRate() > 0
        && probe.unacknowledgedSlope() * probe.seconds() > worrying) {
      double growth = probe.unacknowledgedSlope() * probe.seconds();
      long spread = probe.latencySpread().publishNanos();
      if (growth > swing(rate, spread)) {
        return new StepVerdict(
            StepVerdict.Kind.ACKNOWLEDGEMENTS_BEHIND,
            String.format(
                "the broker acknowledged %.0f msg/s of %.0f sent: unacknowledged messages grew by %.0f per second",
                probe.acknowledgeRate(), probe.publishRate(), probe.unacknowledgedSlope()));
      }
      unclear =
          tooShort("the count of unacknowledged messages", "publish", growth, probe, rate, spread);
    }
    double deliveryRate = rate * probe.subscriptions();
    if (probe.subscriptions() > 0
        && probe.backlogSlope() > deliveryRate * MAX_GROWTH_SHARE_PER_SECOND
        && probe.backlogAtEnd()
            > Math.max(MIN_WORRYING_MESSAGES, deliveryRate * MIN_WORRYING_SECONDS_OF_MESSAGES)) {
      double growth = probe.backlogSlope() * probe.seconds();
      long spread = probe.latencySpread().endToEndNanos();
      if (growth > swing(deliveryRate, spread)) {
        return new StepVerdict(
            StepVerdict.Kind.CONSUMERS_BEHIND,
            String.format(
                "consumers received %.0f msg/s of %.0f due: the backlog grew by %.0f per second to %d",
                probe.consumeRate(), deliveryRate, probe.backlogSlope(), probe.backlogAtEnd()));
      }
      unclear = tooShort("the backlog", "end-to-end", growth, probe, deliveryRate, spread);
    }
    if (probe.undelivered() > 0) {
      // A broker that keeps up by dropping what it acknowledged (an at-most-once one whose
      // consumers fell behind, a stream trimmed before it was read), or whose consumers were still
      // catching up when the drain gave up, did not sustain the rate, however steady its rates and
      // backlog looked while it was measured.
      return new StepVerdict(
          StepVerdict.Kind.UNDELIVERED,
          String.format(
              "%d acknowledged message(s) had not reached their consumers when the drain ended"
                  + " (lost or still in flight)",
              probe.undelivered()));
    }
    if (target.isPresent()) {
      LatencyTarget goal = target.get();
      if (probe.latencyNanos() < 0 || probe.latencyNanos() > goal.limitNanos()) {
        String missed = latencyAgainst(goal, probe, "is above");
        if (!probe.generatorBoundReasons().isEmpty()) {
          // The run's own verdict: producers kept the rate but sent so late that the tail is
          // partly the generator's, so the miss is not the broker's to own.
          return new StepVerdict(
              StepVerdict.Kind.GENERATOR_BOUND,
              missed + ", but " + probe.generatorBoundReasons().get(0));
        }
        return new StepVerdict(StepVerdict.Kind.LATENCY_TARGET_MISSED, missed);
      }
    }
    if (unclear != null) {
      return new StepVerdict(
          StepVerdict.Kind.TOO_SHORT_TO_TELL, unclear + ": too short a probe to tell a trend");
    }
    if (target.isPresent()) {
      LatencyTarget goal = target.get();
      return new StepVerdict(
          StepVerdict.Kind.SUSTAINED, "sustained, " + latencyAgainst(goal, probe, "meets"));
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

  /** How far the in-flight count moves at {@code rate} as latency swings by {@code spreadNanos}. */
  private static double swing(double rate, long spreadNanos) {
    return rate * spreadNanos / 1e9;
  }

  private static String tooShort(
      String count, String family, double growth, ProbeOutcome probe, double rate, long spread) {
    return String.format(
        "%s grew by %.0f in %.1f s, no more than the %.0f that %s latency's spread (p99 - p50 %.0f ms) moves it by at %.0f msg/s",
        count, growth, probe.seconds(), swing(rate, spread), family, spread / 1e6, rate);
  }

  /** "p99 publish latency 1.234 ms {@code relation} the target 2.000 ms", for either verdict. */
  private static String latencyAgainst(LatencyTarget goal, ProbeOutcome probe, String relation) {
    return String.format(
        "p%s %s latency %.3f ms %s the target %.3f ms",
        trim(goal.percentile()),
        goal.family().label(),
        probe.latencyNanos() / 1e6,
        relation,
        goal.limitNanos() / 1e6);
  }

  private static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  /**
   * How long a probe must measure for a broker whose latency spreads as in {@code probe} to tell an
   * excess of {@code precision} of the rate from the swing: 2 x spread / precision, at least twice
   * the probe just run, at most {@link #LONGEST_PROBE}.
   */
  public static Duration probeLongEnough(ProbeOutcome probe, double precision) {
    double needed = 2 * probe.latencySpread().widestSeconds() / precision;
    double seconds = Math.min(LONGEST_PROBE.toSeconds(), Math.max(2 * probe.seconds(), needed));
    return Duration.ofMillis(Math.round(seconds * 1000));
  }
}
