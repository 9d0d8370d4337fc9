package io.plumb.result;

import io.plumb.stats.PeriodStats;
import java.util.Optional;

/**
 * The measured acknowledgements that service time and send delay leave out. A producer keeps the
 * actual send times of its messages in flight in a ring of about two seconds of sends at its
 * starting rate ({@code InFlightTimes}); a message acknowledged after more sends than that went out
 * has lost its send time, so its service time and send delay cannot be known. Its publish latency
 * (from the intended time, which the schedule gives) is exact and counted. Those left out are the
 * messages longest in flight, so the top {@link #share} of the two distributions, and their
 * maximum, may read low: a broker that stalls for 5 s would otherwise vanish from service time.
 *
 * @param timed acknowledgements whose service time and send delay were recorded
 * @param untimed acknowledgements whose send time was no longer held
 */
public record UntimedAcknowledgements(long timed, long untimed) {
  /** For a latency every acknowledgement carries (publish, end-to-end): nothing left out. */
  public static final UntimedAcknowledgements NONE = new UntimedAcknowledgements(0, 0);

  public static UntimedAcknowledgements of(PeriodStats measured) {
    return new UntimedAcknowledgements(
        measured.serviceTime().getTotalCount(), measured.untimedAcknowledgements());
  }

  /** The share of acknowledgements left out, from 0 to 1. */
  public double share() {
    long all = timed + untimed;
    return all == 0 ? 0 : (double) untimed / all;
  }

  /**
   * The percentile above which service time and send delay may read low: where the acknowledgements
   * left out would rank if they were the slowest.
   */
  public double fromPercentile() {
    return 100 * (1 - share());
  }

  /** Whether the figure at {@code percentile} (100 for the maximum) may read low. */
  public boolean mayReadLow(double percentile) {
    return untimed > 0 && percentile > fromPercentile();
  }

  /** The console's line under the latency table, when any acknowledgement was left out. */
  public Optional<String> line() {
    if (untimed == 0) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "Untimed      %,d of %,d acknowledgements (%.2f%%) came after their producer let go of"
                + " their send time (it keeps about 2 s of sends at its starting rate): service"
                + " time and send delay leave them out, so above %s they may read low (marked *);"
                + " publish and end-to-end latency count them",
            untimed, timed + untimed, 100 * share(), label(fromPercentile())));
  }

  /**
   * {@code percentile}'s label ("p98.2"), rounded down to the few digits a reader needs: never up
   * past the boundary, so the figures above the label include every one that may read low.
   */
  public static String label(double percentile) {
    for (int digits = 1; digits <= 6; digits++) {
      double scale = Math.pow(10, digits);
      // The epsilon keeps 98.2, stored as 98.19999999999999, from reading p98.19.
      double rounded = Math.floor(percentile * scale + 1e-9) / scale;
      if (percentile - rounded < 0.05 * (100 - percentile) || digits == 6) {
        return Percentiles.label(rounded);
      }
    }
    return Percentiles.label(percentile);
  }
}
