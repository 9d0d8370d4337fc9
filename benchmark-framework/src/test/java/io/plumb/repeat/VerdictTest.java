package io.plumb.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The three verdicts of an interval against the ±5% band, read from paired rounds. */
class VerdictTest {
  private static final double[] A = {100, 100, 100, 100, 100};

  private static Difference against(double... b) {
    return Difference.of(A, b, 0.05, 0);
  }

  @Test
  void beyondTheBandIsADifferenceEitherWay() {
    Difference faster = against(108, 110, 112, 109, 111);
    assertEquals(1.08, faster.low(), 1e-12);
    assertEquals(1.12, faster.high(), 1e-12);
    assertEquals(Verdict.DIFFERENT, faster.intervalVerdict(0.05));
    assertEquals(Verdict.DIFFERENT, against(90, 92, 94, 91, 93).intervalVerdict(0.05));
    // The band is symmetric on the log scale: 1/1.05 = 0.95238 bounds it below.
    assertEquals(Verdict.DIFFERENT, Verdict.of(0.90, 0.9523, 0.05));
    assertEquals(Verdict.SAME_WITHIN_MARGIN, Verdict.of(0.9524, 1.05, 0.05));
  }

  @Test
  void insideTheBandIsTheSameWithinIt() {
    assertEquals(Verdict.SAME_WITHIN_MARGIN, against(98, 101, 103, 99, 100).intervalVerdict(0.05));
  }

  @Test
  void reachingInsideAndBeyondIsNotDistinguishable() {
    // 1.03 to 1.08: a difference, perhaps, but not shown to exceed 5%.
    assertEquals(
        Verdict.NOT_DISTINGUISHABLE, against(103, 105, 108, 104, 106).intervalVerdict(0.05));
    // The same runs with a 2% margin: beyond it.
    assertEquals(Verdict.DIFFERENT, against(103, 105, 108, 104, 106).intervalVerdict(0.02));
  }

  @Test
  void theHeadlineWordsNameTheDirectionAndWhetherItIsWorse() {
    Metric rate = Metric.all().get(0);
    Metric p99 =
        Metric.all().stream().filter(m -> m.name().equals("publish p99")).findFirst().get();
    Difference d = against(108, 110, 112, 109, 111);
    assertEquals("B faster: 1.100x A", d.differentWords(rate));
    assertEquals("B higher: 1.100x A (worse)", d.differentWords(p99));
    assertEquals("93.8% CI 1.080x to 1.120x", d.interval());
  }
}
