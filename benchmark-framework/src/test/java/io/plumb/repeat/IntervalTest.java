package io.plumb.repeat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Hodges-Lehmann estimates and exact signed-rank intervals against values worked out by hand. */
class IntervalTest {

  @Test
  void fiveValuesGiveTheWidestIntervalAt93Point75Percent() {
    // Walsh averages of 1, 2, 3, 4, 10 (i <= j), sorted:
    // 1 1.5 2 2 2.5 2.5 3 3 3.5 4 5.5 6 6.5 7 10; the 8th of 15 is 3.
    assertArrayEquals(
        new double[] {1, 1.5, 2, 2, 2.5, 2.5, 3, 3, 3.5, 4, 5.5, 6, 6.5, 7, 10},
        HodgesLehmann.walshAverages(new double[] {10, 1, 4, 2, 3}),
        0);
    HodgesLehmann hl = HodgesLehmann.of(new double[] {10, 1, 4, 2, 3});
    assertEquals(3, hl.estimate(), 0);
    // 2^5 = 32 sign patterns; only "all minus" gives T+ = 0: the interval [W(1), W(15)] covers
    // 1 - 2/32 = 93.75%, and no narrower one reaches even that.
    assertEquals(1, hl.low(), 0);
    assertEquals(10, hl.high(), 0);
    assertEquals(0.9375, hl.level(), 1e-15);
  }

  @Test
  void eightValuesUseTheFourthWalshAverageFromEachEnd() {
    // n = 8: P(T+ <= 3) = 5/256, so k = 4 covers 1 - 10/256 = 96.09%; k = 5 covers
    // 1 - 14/256 = 94.53% (below 95%). Walsh averages of 1..8: the 4th smallest is 2
    // (1, 1.5, 2, 2), the 4th largest 7; their median is 4.5.
    HodgesLehmann hl = HodgesLehmann.of(new double[] {1, 2, 3, 4, 5, 6, 7, 8});
    assertEquals(4.5, hl.estimate(), 0);
    assertEquals(2, hl.low(), 0);
    assertEquals(7, hl.high(), 0);
    assertEquals(1 - 10.0 / 256, hl.level(), 1e-15);
  }

  @Test
  void theTestsPValueAgreesWithTheInterval() {
    double[] values = {10, 1, 4, 2, 3};
    // Every Walsh average above 0.5: T+ = 15, p = P(T+ >= 15) = 1/32.
    assertEquals(1.0 / 32, HodgesLehmann.pAbove(values, 0.5), 1e-15);
    // 14 of 15 above 1.25: p = P(T+ >= 14) = P(T+ <= 1) = 2/32.
    assertEquals(2.0 / 32, HodgesLehmann.pAbove(values, 1.25), 1e-15);
    // Nothing below 0.5: the chance of a centre below it is 1.
    assertEquals(1, HodgesLehmann.pBelow(values, 0.5), 1e-15);
    assertEquals(1.0 / 32, HodgesLehmann.pBelow(values, 10.5), 1e-15);
  }

  @Test
  void oneSideIsTheEstimateOfTheLogsTurnedBack() {
    // logs 0.1 .. 0.5: symmetric, so the estimate is e^0.3; five runs: [e^0.1, e^0.5] at 93.75%.
    double[] values = new double[5];
    for (int i = 0; i < 5; i++) {
      values[i] = Math.exp(0.1 * (i + 1));
    }
    Estimate e = Estimate.of(values, 0);
    assertEquals(Math.exp(0.3), e.estimate(), 1e-12);
    assertEquals(Math.exp(0.1), e.low(), 1e-12);
    assertEquals(Math.exp(0.5), e.high(), 1e-12);
    assertEquals(0.9375, e.level(), 1e-15);
    assertFalse(Estimate.of(new double[] {5}, 0).hasInterval());
    assertNull(Estimate.of(new double[] {0, 1, 2}, 0).estimate());
  }

  @Test
  void zeroSpreadIsFlooredByTheRecordingResolution() {
    double[] same = {4, 4, 4, 4, 4};
    Estimate exact = Estimate.of(same, 0);
    assertEquals(4, exact.low(), 0);
    assertEquals(4, exact.high(), 0);
    // A percentile recorded to 3 significant digits is known to 1 part in 1,000 only.
    Estimate floored = Estimate.of(same, 1e-3);
    assertEquals(4 / 1.001, floored.low(), 1e-12);
    assertEquals(4 * 1.001, floored.high(), 1e-12);

    // Paired: A and B each rounded, so B/A is known to about 2 parts in 1,000.
    Difference d = Difference.of(same, same, 0.05, 1e-3);
    assertEquals(1, d.ratio(), 0);
    assertEquals(1 / 1.002, d.low(), 1e-12);
    assertEquals(1.002, d.high(), 1e-12);
    // A spread wider than the floor is left as it is.
    Difference wide = Difference.of(same, new double[] {4, 4.4, 4.2, 3.8, 4.1}, 0.05, 1e-3);
    assertEquals(0.95, wide.low(), 1e-12);
    assertEquals(1.1, wide.high(), 1e-12);
  }
}
