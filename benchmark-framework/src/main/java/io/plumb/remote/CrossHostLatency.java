package io.plumb.remote;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.result.Percentiles;
import io.plumb.result.RunReport;
import java.io.PrintStream;
import java.util.Locale;

/**
 * End-to-end latency across hosts is corrected by clock offsets known only to within their
 * uncertainty: that uncertainty goes beside the figure, in the result and on the console, and where
 * it exceeds a tenth of the median, a plain sentence says the figure is known only to that much.
 */
public final class CrossHostLatency {

  private CrossHostLatency() {}

  /**
   * Adds the uncertainty (and, where it matters, the warning) to the result's {@code
   * latency.endToEnd} and prints them.
   */
  public static void report(
      RunReport report, long uncertaintyNanos, ObjectNode resultJson, PrintStream out) {
    double uncertaintyMillis = uncertaintyNanos / 1e6;
    double p50 = Percentiles.millis(report.measured().endToEndLatency(), 50);
    ObjectNode endToEnd = (ObjectNode) resultJson.path("latency").path("endToEnd");
    String line =
        String.format(
            Locale.ROOT,
            "end-to-end latency across hosts: clock offsets known to ± %.3f ms (p50 %.3f ms)",
            uncertaintyMillis,
            p50);
    if (!endToEnd.isMissingNode()) {
      endToEnd.put("clockUncertaintyMillis", uncertaintyMillis);
    }
    if (uncertaintyMillis > p50 / 10) {
      String warning = warning(uncertaintyMillis);
      if (!endToEnd.isMissingNode()) {
        endToEnd.put("clockWarning", warning);
      }
      line += "; " + warning;
    }
    out.println(line);
  }

  static String warning(double uncertaintyMillis) {
    return String.format(
        Locale.ROOT,
        "end-to-end latency across these hosts is known only to ± %.3f ms",
        uncertaintyMillis);
  }
}
