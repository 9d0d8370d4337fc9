package io.plumb.bottleneck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BottleneckVerdictTest {
  private static final long MS = 1_000_000;

  private static ScheduleEvidence evidence(
      double sent, double acknowledged, long lag, long delayP50, double sendShare) {
    return new ScheduleEvidence(
        10_000, sent, acknowledged, lag, delayP50, 2 * delayP50, sendShare, 0.97, 0.08);
  }

  @Test
  void producersOnScheduleKeptIt() {
    BottleneckVerdict verdict = BottleneckVerdict.judge(evidence(9_950, 9_950, 5, MS / 10, 0.2));
    assertEquals(BottleneckVerdict.Kind.KEPT_SCHEDULE, verdict.kind(), verdict.reason());
  }

  @Test
  void aShortCountThatCaughtUpIsNotFallingBehind() {
    // 3% short, but only 10 messages behind at the end: a thread descheduled as the period closed.
    BottleneckVerdict verdict = BottleneckVerdict.judge(evidence(9_700, 9_700, 10, MS / 10, 0.2));
    assertEquals(BottleneckVerdict.Kind.KEPT_SCHEDULE, verdict.kind(), verdict.reason());
  }

  @Test
  void freeThreadsBehindScheduleAreTheHostAndTheReasonQuotesItsFigures() {
    BottleneckVerdict verdict =
        BottleneckVerdict.judge(evidence(8_000, 8_000, 20_000, 80 * MS, 0.1));
    assertEquals(BottleneckVerdict.Kind.GENERATOR_BOUND, verdict.kind());
    assertTrue(
        verdict.reason().contains("the worker used 97% of the host's CPU"), verdict.reason());
    assertTrue(verdict.reason().contains("steal 8.0%"), verdict.reason());
    assertEquals(97.0, verdict.figures().get("workerCpuPercentOfHost"), 1e-9);
  }

  @Test
  void blockedSendsOrSlowAcknowledgementsAreTheBrokerPushingBack() {
    BottleneckVerdict blocked =
        BottleneckVerdict.judge(evidence(8_000, 8_000, 20_000, 80 * MS, 0.9));
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, blocked.kind());
    assertTrue(blocked.reason().contains("90% of their time inside the driver's send()"));
    BottleneckVerdict slowAcks =
        BottleneckVerdict.judge(evidence(8_000, 5_000, 20_000, 80 * MS, 0.1));
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, slowAcks.kind());
    assertTrue(slowAcks.reason().contains("acknowledged only 5000 msg/s of the 8000 sent"));
  }
}
