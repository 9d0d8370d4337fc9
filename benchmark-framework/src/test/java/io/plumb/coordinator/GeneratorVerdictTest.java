package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.bottleneck.BottleneckVerdict;
import io.plumb.bottleneck.ScheduleEvidence;
import io.plumb.bottleneck.ThreadEvidence;
import org.junit.jupiter.api.Test;

class GeneratorVerdictTest {
  private static final long MS = 1_000_000;
  private static final long S = 1_000_000_000;

  /** 30 s of one producer thread, mostly parked waiting for its schedule. */
  private static ThreadEvidence threads(long sendMs, long cpuMs, long runDelayMs) {
    return new ThreadEvidence(30 * S, sendMs * MS, cpuMs * MS, runDelayMs * MS);
  }

  private static GeneratorVerdict judge(
      double rate, long sent, long sendDelayP99, long publishP99, ThreadEvidence threads) {
    double achieved = sent / 30.0;
    return GeneratorVerdict.judge(
        new ScheduleEvidence(
            rate, achieved, achieved, -1, 0, sendDelayP99, threads, Double.NaN, Double.NaN),
        publishP99);
  }

  @Test
  void missingTheRateWhileWaitingForACoreIsGeneratorBound() {
    GeneratorVerdict verdict = judge(10_000, 290_000, 0, 5 * MS, threads(900, 14_000, 15_000));
    assertTrue(verdict.generatorBound());
    assertTrue(
        verdict.reasons().get(0).startsWith("producers sent 9667 msg/s, 3.3% below the target"),
        verdict.reasons().get(0));
    assertTrue(verdict.reasons().get(0).contains("got 48% of the CPU they asked for"));
  }

  @Test
  void aClientBlockingTheProducerThreadIsTheBrokerPushingBackNotTheGenerator() {
    GeneratorVerdict verdict = judge(400_000, 6_000_000, 0, 5 * MS, threads(29_000, 1_500, 300));
    assertFalse(verdict.generatorBound());
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, verdict.bottleneck().kind());
    assertTrue(
        verdict.bottleneck().reason().contains("send() blocked 94% of the time"),
        verdict.bottleneck().reason());
  }

  @Test
  void lateSendsOfThreadsThatWaitedForACoreAreGeneratorBound() {
    GeneratorVerdict verdict = judge(10_000, 300_000, 4 * MS, 10 * MS, threads(300, 3_000, 1_500));
    assertTrue(verdict.generatorBound());
    assertTrue(
        verdict
            .reasons()
            .get(0)
            .contains("send delay p99 4.00 ms is 40% of the publish latency p99"));
    assertTrue(verdict.reasons().get(0).contains("waited for a core 5%"));
  }

  @Test
  void lateSendsFromShortBurstsOfBlockingInSendAreNotTheGenerators() {
    // send() blocked 1.5 s in all (5% of the time), in bursts that made the tail late; the threads
    // waited for a core only 0.1 s.
    GeneratorVerdict verdict = judge(10_000, 300_000, 4 * MS, 10 * MS, threads(1_700, 2_000, 100));
    assertFalse(verdict.generatorBound(), verdict.bottleneck().reason());
    assertEquals(BottleneckVerdict.Kind.KEPT_SCHEDULE, verdict.bottleneck().kind());
    assertTrue(verdict.bottleneck().reason().contains("send() blocked"));
  }

  @Test
  void lateSendsWithMixedEvidenceAreUndecided() {
    GeneratorVerdict verdict = judge(10_000, 300_000, 4 * MS, 10 * MS, threads(1_000, 2_000, 700));
    assertFalse(verdict.generatorBound());
    assertEquals(BottleneckVerdict.Kind.UNDECIDED, verdict.bottleneck().kind());
  }

  @Test
  void aSmallOrMinorSendDelayIsNot() {
    ThreadEvidence starved = threads(300, 3_000, 1_500);
    // 1.4 ms of send delay under a 15 ms publish tail: a scheduling blip, not the generator's
    // limit.
    assertFalse(judge(10_000, 300_100, 1_400_000, 15 * MS, starved).generatorBound());
    // Microseconds of send delay never count, however fast the broker.
    assertFalse(judge(100_000, 3_000_000, 7_000, 10_000, starved).generatorBound());
  }
}
