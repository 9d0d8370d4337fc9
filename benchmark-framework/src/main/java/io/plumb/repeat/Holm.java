package io.plumb.repeat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm's step-down correction: of m hypotheses tested together, the smallest p-value is held to
 * alpha/m, the next to alpha/(m-1), and so on, stopping at the first that fails. The chance of
 * calling any true "no difference" a difference stays at most alpha for the whole family, whatever
 * the dependence between the tests (metrics of one run are far from independent).
 */
public final class Holm {
  private Holm() {}

  /**
   * Holm-adjusted p-values, in the order given: p_(i) becomes max over j <= i of (m - j + 1) p_(j),
   * capped at 1. A hypothesis is rejected at family-wise level alpha when its adjusted p-value is
   * at most alpha.
   */
  public static double[] adjust(double[] p) {
    int m = p.length;
    Integer[] order = IntStream.range(0, m).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
    double[] adjusted = new double[m];
    double running = 0;
    for (int rank = 0; rank < m; rank++) {
      int i = order[rank];
      running = Math.max(running, Math.min(1, (m - rank) * p[i]));
      adjusted[i] = running;
    }
    return adjusted;
  }
}
