package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.bottleneck.BottleneckVerdict;
import org.junit.jupiter.api.Test;

class GeneratorVerdictTest {
  private static final long MS = 1_000_000;

  @Test
  void missingTheRateIsGeneratorBound() {
    GeneratorVerdict verdict = GeneratorVerdict.judge(10_000, 290_000, 30, 0, 5 * MS, 0.1);
    assertTrue(verdict.generatorBound());
    assertTrue(
        verdict.reasons().get(0).startsWith("producers sent 9667 msg/s, 3.3% below the target"),
        verdict.reasons().get(0));
  }

  @Test
  void aClientHoldingTheProducerThreadIsTheBrokerPushingBackNotTheGenerator() {
    // Producers short of the rate because send() held them: the broker (or the client's limits)
    // pushed back, which is not the generator's limit.
    GeneratorVerdict verdict = GeneratorVerdict.judge(400_000, 6_000_000, 20, 0, 5 * MS, 0.97);
    assertFalse(verdict.generatorBound());
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, verdict.bottleneck().kind());
    assertTrue(
        verdict.bottleneck().reason().contains("97% of their time inside the driver's send()"),
        verdict.bottleneck().reason());
  }

  @Test
  void lateSendsThatMakeUpTheTailAreGeneratorBound() {
    GeneratorVerdict verdict = GeneratorVerdict.judge(10_000, 300_000, 30, 4 * MS, 10 * MS, 0.05);
    assertTrue(verdict.generatorBound());
    assertTrue(
        verdict
            .reasons()
            .get(0)
            .contains("send delay p99 4.00 ms is 40% of the publish latency p99"));
  }

  @Test
  void aSmallOrMinorSendDelayIsNot() {
    // 1.4 ms of send delay under a 15 ms publish tail: a scheduling blip, not the generator's
    // limit.
    assertFalse(
        GeneratorVerdict.judge(10_000, 300_100, 30, 1_400_000, 15 * MS, 0.04).generatorBound());
    // Microseconds of send delay never count, however fast the broker.
    assertFalse(
        GeneratorVerdict.judge(100_000, 3_000_000, 30, 7_000, 10_000, 0.3).generatorBound());
  }
}
