package io.plumb.search;

import java.util.Arrays;

/**
 * How fast a series grows: the Theil-Sen estimate, the median of the slopes between every pair of
 * samples. A broker that stalls for a few hundred milliseconds at the end of a probe moves one or
 * two samples; a least-squares line would turn that into a trend, the median of pairwise slopes
 * does not. A rate above capacity makes every pair slope upwards, so it still shows.
 */
final class Trend {
  private Trend() {}

  /** Units per second; 0 with fewer than 2 points. */
  static double slope(double[] times, double[] values) {
    int n = times.length;
    if (n < 2) {
      return 0;
    }
    double[] slopes = new double[n * (n - 1) / 2];
    int count = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double dt = times[j] - times[i];
        if (dt > 0) {
          slopes[count++] = (values[j] - values[i]) / dt;
        }
      }
    }
    if (count == 0) {
      return 0;
    }
    double[] used = Arrays.copyOf(slopes, count);
    Arrays.sort(used);
    return count % 2 == 1 ? used[count / 2] : (used[count / 2 - 1] + used[count / 2]) / 2;
  }
}
