package io.plumb.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TrendTest {
  private static final double[] TIMES = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0};

  @Test
  void aSteadyGrowthIsItsSlope() {
    assertEquals(100, Trend.slope(TIMES, new double[] {50, 100, 150, 200, 250, 300}), 1e-9);
  }

  @Test
  void oneStallAtTheEndIsNotATrend() {
    // Flat in-flight count, then a 500-ms stall at 1,000 msg/s piles up 500 at the last sample.
    assertEquals(0, Trend.slope(TIMES, new double[] {10, 12, 9, 11, 10, 510}), 2);
  }

  @Test
  void tooFewPointsHaveNoTrend() {
    assertEquals(0, Trend.slope(new double[] {1}, new double[] {5}));
  }
}
