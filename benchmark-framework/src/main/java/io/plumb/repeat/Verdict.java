package io.plumb.repeat;

/** What a comparison concludes about one metric, read from its interval and the margin. */
public enum Verdict {
  /** The interval lies wholly beyond the margin band, and the family control agrees. */
  DIFFERENT,
  /** The interval lies wholly inside the margin band: any difference is smaller than it. */
  SAME_WITHIN_MARGIN,
  /** The interval reaches both inside and beyond the band: these runs cannot say. */
  NOT_DISTINGUISHABLE;

  /**
   * The verdict of an interval of B/A against the band [1/(1+margin), 1+margin] (symmetric on the
   * log scale, so B against A and A against B read alike).
   */
  public static Verdict of(double low, double high, double margin) {
    double upper = 1 + margin;
    double lower = 1 / upper;
    if (low > upper || high < lower) {
      return DIFFERENT;
    }
    if (low >= lower && high <= upper) {
      return SAME_WITHIN_MARGIN;
    }
    return NOT_DISTINGUISHABLE;
  }
}
