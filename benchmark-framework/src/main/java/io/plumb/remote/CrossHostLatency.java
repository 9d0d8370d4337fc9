package io.plumb.remote;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.result.Percentiles;
import java.util.Locale;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * End-to-end latency across hosts is corrected by clock offsets known only to within their
 * uncertainty, and can be off by that much in either direction: the uncertainty goes beside every
 * such figure, in the result, on the console and in the report, and where it exceeds a tenth of the
 * median, a plain sentence says the figure is known only to that much.
 *
 * @param uncertaintyMillis how far the corrected figures can be off from the clock offsets alone
 * @param p50Millis the end-to-end median those figures have
 */
public record CrossHostLatency(double uncertaintyMillis, double p50Millis) {

  public static CrossHostLatency of(long uncertaintyNanos, Histogram endToEnd) {
    return new CrossHostLatency(uncertaintyNanos / 1e6, Percentiles.millis(endToEnd, 50));
  }

  /**
   * A tenth of the median: beyond it, even the median's first figure or two is in doubt, so the
   * figures must not be read as exact.
   */
  public boolean uncertain() {
    return uncertaintyMillis > p50Millis / 10;
  }

  /** What goes beside a figure: "± 0.123 ms". */
  public String plusMinus() {
    return String.format(Locale.ROOT, "± %.3f ms", uncertaintyMillis);
  }

  /** The plain sentence, where the uncertainty exceeds a tenth of the median. */
  public Optional<String> warning() {
    return uncertain()
        ? Optional.of("end-to-end latency across these hosts is known only to " + plusMinus())
        : Optional.empty();
  }

  /** The console's line under the latency table. */
  public String line() {
    String line =
        String.format(
            Locale.ROOT,
            "end-to-end latency across hosts: clock offsets known to %s (p50 %.3f ms)",
            plusMinus(),
            p50Millis);
    return warning().map(w -> line + "; " + w).orElse(line);
  }

  /** Adds the uncertainty, and the warning where it applies, to the result's latency.endToEnd. */
  public void addTo(ObjectNode resultJson) {
    if (!(resultJson.path("latency").path("endToEnd") instanceof ObjectNode endToEnd)) {
      return;
    }
    endToEnd.put("clockUncertaintyMillis", uncertaintyMillis);
    warning().ifPresent(w -> endToEnd.put("clockWarning", w));
  }
}
