package io.plumb.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.bottleneck.ThreadEvidence;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Growth of in-flight counts judged against the swing the latency's spread explains. */
class StepJudgeTest {
  private static final StepJudge JUDGE = new StepJudge(Optional.empty());
  private static final ThreadEvidence KEPT_UP =
      new ThreadEvidence(1_000_000_000, 50_000_000, 900_000_000, 50_000_000);

  /** 1,000 msg/s for 3 s; unacknowledged messages and the backlog grew by {@code growth}. */
  private static ProbeOutcome grew(double growth, long spreadMillis) {
    return probe(growth, spreadMillis, 0);
  }

  /** {@link #grew}, with {@code undelivered} acknowledged messages that never arrived. */
  private static ProbeOutcome probe(double growth, long spreadMillis, long undelivered) {
    return new ProbeOutcome(
        1000,
        3,
        1000,
        1000 - growth / 3,
        1000 - growth / 3,
        1,
        growth / 3,
        growth / 3,
        (long) growth,
        0,
        10_000,
        100_000,
        -1,
        0,
        0,
        undelivered,
        KEPT_UP,
        List.of(),
        null,
        4,
        Double.NaN,
        Double.NaN,
        new LatencySpread(spreadMillis * 1_000_000, spreadMillis * 1_000_000));
  }

  @Test
  void growthWithinTheLatencysSwingIsTooShortToTell() {
    // p99 - p50 of 400 ms at 1,000 msg/s moves the in-flight count by 400 messages.
    StepVerdict verdict = JUDGE.judge(grew(300, 400));
    assertEquals(StepVerdict.Kind.TOO_SHORT_TO_TELL, verdict.kind(), verdict.reason());
    assertTrue(verdict.reason().contains("400 ms"), verdict.reason());
  }

  @Test
  void growthBeyondTheSwingIsFallingBehind() {
    assertEquals(StepVerdict.Kind.ACKNOWLEDGEMENTS_BEHIND, JUDGE.judge(grew(500, 400)).kind());
  }

  @Test
  void withoutSpreadTheSameGrowthIsFallingBehind() {
    assertEquals(StepVerdict.Kind.ACKNOWLEDGEMENTS_BEHIND, JUDGE.judge(grew(300, 0)).kind());
  }

  @Test
  void growthUnderTheOldThresholdsStaysSustainedWhateverTheSpread() {
    assertEquals(StepVerdict.Kind.SUSTAINED, JUDGE.judge(grew(10, 400)).kind());
  }

  @Test
  void aSteadyProbeWhoseAcknowledgedMessagesDidNotAllArriveFails() {
    StepVerdict verdict = JUDGE.judge(probe(0, 0, 3));
    assertEquals(StepVerdict.Kind.UNDELIVERED, verdict.kind(), verdict.reason());
    assertEquals(
        "3 acknowledged message(s) had not reached their consumers when the drain ended (lost or"
            + " still in flight)",
        verdict.reason());
  }

  @Test
  void aMissedLatencyTargetIsTheGeneratorsWhenTheRunFoundItsLateSendsInTheTail() {
    StepJudge judge = new StepJudge(Optional.of(LatencyTarget.parse("p99 publish <= 5ms")));
    String late =
        "producers kept the rate but sent late: send delay p99 6.00 ms is 75% of the publish"
            + " latency p99 (8.00 ms); that tail is partly the generator's";
    StepVerdict verdict = judge.judge(missedBy(8_000_000, List.of(late)));
    assertEquals(StepVerdict.Kind.GENERATOR_BOUND, verdict.kind(), verdict.reason());
    assertTrue(verdict.reason().endsWith(", but " + late), verdict.reason());
    // Without the run's generator verdict the miss is the broker's.
    assertEquals(
        StepVerdict.Kind.LATENCY_TARGET_MISSED, judge.judge(missedBy(8_000_000, List.of())).kind());
  }

  /** {@link #grew}'s steady probe with a latency of {@code latencyNanos} and these reasons. */
  private static ProbeOutcome missedBy(long latencyNanos, List<String> generatorBoundReasons) {
    return steady(latencyNanos, generatorBoundReasons, null);
  }

  /**
   * {@link #grew}'s steady probe with a latency of {@code latencyNanos}, the run's generator
   * verdict's reasons and why it stopped early (null when it completed).
   */
  private static ProbeOutcome steady(
      long latencyNanos, List<String> generatorBoundReasons, String incompleteReason) {
    ProbeOutcome steady = grew(0, 0);
    return new ProbeOutcome(
        steady.targetRate(),
        steady.seconds(),
        steady.publishRate(),
        steady.acknowledgeRate(),
        steady.consumeRate(),
        steady.subscriptions(),
        steady.unacknowledgedSlope(),
        steady.backlogSlope(),
        steady.backlogAtEnd(),
        steady.scheduleLagAtEnd(),
        steady.sendDelayP50Nanos(),
        steady.sendDelayP99Nanos(),
        latencyNanos,
        steady.failedSends(),
        steady.consumerErrors(),
        steady.undelivered(),
        steady.producerThreads(),
        generatorBoundReasons,
        incompleteReason,
        steady.resultTimeSeconds(),
        steady.workerCpuShare(),
        steady.stealShare(),
        steady.latencySpread());
  }

  @Test
  void aRunThatDidNotCompleteIsNotSustainedWhateverItMeasuredBeforeItStopped() {
    // A final measurement stopped by Ctrl-C after a few steady periods, or whose message count
    // failed (lost and in flight then read 0): its figures are not the full duration's.
    ProbeOutcome cut = steady(-1, List.of(), "interrupted (Ctrl-C)");
    StepVerdict verdict = JUDGE.judge(cut);
    assertEquals(StepVerdict.Kind.ERRORS, verdict.kind(), verdict.reason());
    assertEquals("the run did not complete: interrupted (Ctrl-C)", verdict.reason());

    // So the search's result names no stable peak for it.
    SearchResult search =
        new SearchResult(
            "peak",
            Optional.of(1000.0),
            Optional.of(1050.0),
            "broker",
            "",
            List.of(),
            SearchSettings.defaults(),
            1,
            null,
            Optional.empty());
    assertTrue(
        SearchJson.render(search, List.of(new FinalMeasurement(1000, cut, verdict)))
            .get("stablePeakMsgPerSec")
            .isNull());
  }

  @Test
  void aLongerProbeIsLongEnoughToTellFivePercentFromTheSwing() {
    // 2 x 0.4 s / 0.05 = 16 s; never shorter than twice the probe run, never over the longest.
    assertEquals(Duration.ofSeconds(16), StepJudge.probeLongEnough(grew(300, 400), 0.05));
    assertEquals(Duration.ofSeconds(6), StepJudge.probeLongEnough(grew(300, 10), 0.05));
    assertEquals(StepJudge.LONGEST_PROBE, StepJudge.probeLongEnough(grew(300, 5_000), 0.05));
  }
}
