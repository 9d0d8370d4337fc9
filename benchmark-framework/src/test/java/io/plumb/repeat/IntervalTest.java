package io.plumb.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The interval arithmetic against values worked out by hand from a t table. */
class IntervalTest {

  @Test
  void oneSideIsStudentsTOnLogs() {
    // logs 0, 1, 2 (e^0, e^1, e^2): mean 1, sd 1, standard error 1/sqrt(3), t(2) 4.3027.
    Estimate e = Estimate.of(new double[] {1, Math.E, Math.exp(2)});
    assertEquals(Math.E, e.median(), 1e-12);
    assertEquals(Math.E, e.geometricMean(), 1e-12);
    double half = 4.302653 / Math.sqrt(3);
    assertEquals(Math.exp(1 - half), e.ci95Low(), 1e-5);
    assertEquals(Math.exp(1 + half), e.ci95High(), 1e-5);
    assertFalse(Estimate.of(new double[] {5}).hasInterval());
  }

  @Test
  void twoSidesAreWelchsTAndTheVerdictReadsTheInterval() {
    double[] a = {100, 102, 98, 101, 99};
    double[] b = {120, 123, 118, 121, 119};
    Difference faster = Difference.of(a, b).orElseThrow();
    assertTrue(faster.distinguishable());
    Metric rate = Metric.all().get(0);
    assertTrue(faster.verdict(rate).startsWith("B faster by 20.2% (95% CI "), faster.verdict(rate));

    Difference same = Difference.of(a, new double[] {101, 99, 100, 103, 97}).orElseThrow();
    assertFalse(same.distinguishable());
    assertTrue(same.verdict(rate).startsWith("not distinguishable"));

    Metric p99 =
        Metric.all().stream().filter(m -> m.name().equals("publish p99")).findFirst().get();
    assertTrue(faster.verdict(p99).startsWith("B higher by 20.2%"));
    assertTrue(faster.verdict(p99).endsWith("(worse)"));
    assertTrue(Difference.of(new double[] {1, 2}, b).isEmpty());
  }
}
