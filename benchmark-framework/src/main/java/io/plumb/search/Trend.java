package io.plumb.search;

/** Least-squares slope, so one noisy sample cannot make a trend on its own. */
final class Trend {
  private Trend() {}

  /** Slope of {@code values} over {@code times} (units per second); 0 with fewer than 2 points. */
  static double slope(double[] times, double[] values) {
    int n = times.length;
    if (n < 2) {
      return 0;
    }
    double meanT = 0;
    double meanV = 0;
    for (int i = 0; i < n; i++) {
      meanT += times[i];
      meanV += values[i];
    }
    meanT /= n;
    meanV /= n;
    double covariance = 0;
    double variance = 0;
    for (int i = 0; i < n; i++) {
      covariance += (times[i] - meanT) * (values[i] - meanV);
      variance += (times[i] - meanT) * (times[i] - meanT);
    }
    return variance == 0 ? 0 : covariance / variance;
  }
}
