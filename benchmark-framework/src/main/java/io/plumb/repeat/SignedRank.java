package io.plumb.repeat;

/**
 * The exact null distribution of Wilcoxon's signed-rank statistic T+ for n paired differences: each
 * of the 2^n sign patterns equally likely, T+ the sum of the ranks with a + sign (0 to n(n+1)/2).
 * Counted by dynamic programming, so it is exact for any n a repeat can have (no normal
 * approximation, which is poor at the 5 to 10 rounds benchmarks run).
 */
final class SignedRank {
  /** Beyond this many rounds the counts overflow a double's exact range; no repeat goes near. */
  static final int MAX_ROUNDS = 1000;

  private final int n;
  private final double[] cumulative; // cumulative[t] = P(T+ <= t)

  SignedRank(int n) {
    if (n < 1 || n > MAX_ROUNDS) {
      throw new IllegalArgumentException("signed-rank distribution for 1 to 1000 values, got " + n);
    }
    this.n = n;
    int max = n * (n + 1) / 2;
    double[] ways = new double[max + 1];
    ways[0] = 1;
    for (int rank = 1; rank <= n; rank++) {
      for (int t = max; t >= rank; t--) {
        ways[t] += ways[t - rank];
      }
    }
    double total = Math.pow(2, n);
    cumulative = new double[max + 1];
    double sum = 0;
    for (int t = 0; t <= max; t++) {
      sum += ways[t];
      cumulative[t] = sum / total;
    }
  }

  /** n(n+1)/2: the number of Walsh averages, and the largest T+. */
  int walshCount() {
    return n * (n + 1) / 2;
  }

  /** P(T+ <= t); 0 below 0, 1 beyond the largest value. */
  double atMost(double t) {
    int whole = (int) Math.floor(t);
    if (whole < 0) {
      return 0;
    }
    return whole >= cumulative.length ? 1 : cumulative[whole];
  }

  /**
   * The rank k of the Walsh averages that bound the interval [W(k), W(M+1-k)]: the largest k whose
   * coverage 1 - 2 P(T+ <= k-1) is at least the level asked for, or 1 (the widest interval there
   * is) when no k reaches it, as with 5 rounds and 95% (the best there is 93.75%).
   */
  int boundRank(double level) {
    int k = 1;
    while (k + 1 <= (walshCount() + 1) / 2 && coverage(k + 1) >= level) {
      k++;
    }
    return k;
  }

  /** The exact coverage of the interval [W(k), W(M+1-k)]. */
  double coverage(int k) {
    return 1 - 2 * atMost(k - 1);
  }
}
