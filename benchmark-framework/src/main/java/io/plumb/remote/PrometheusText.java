package io.plumb.remote;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import java.util.Map;

/**
 * Writes a Dropwizard {@link MetricRegistry} in Prometheus' text exposition format (version 0.0.4).
 * Counters and meters become counters ({@code _total}) with meters' one-minute rate beside them;
 * numeric gauges become gauges; histograms and timers become summaries.
 */
public final class PrometheusText {
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private PrometheusText() {}

  public static String render(MetricRegistry registry) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, Counter> entry : registry.getCounters().entrySet()) {
      String name = sanitize(entry.getKey());
      counter(out, name, entry.getValue().getCount());
    }
    for (Map.Entry<String, Meter> entry : registry.getMeters().entrySet()) {
      String name = sanitize(entry.getKey());
      Meter meter = entry.getValue();
      counter(out, name, meter.getCount());
      gauge(out, name + "_rate1m", meter.getOneMinuteRate());
    }
    for (Map.Entry<String, Gauge> entry : registry.getGauges().entrySet()) {
      Object value = entry.getValue().getValue();
      if (value instanceof Number number) {
        gauge(out, sanitize(entry.getKey()), number.doubleValue());
      } else if (value instanceof Boolean flag) {
        gauge(out, sanitize(entry.getKey()), flag ? 1 : 0);
      }
    }
    for (Map.Entry<String, Histogram> entry : registry.getHistograms().entrySet()) {
      Histogram histogram = entry.getValue();
      summary(out, sanitize(entry.getKey()), histogram.getSnapshot(), histogram.getCount(), 1);
    }
    for (Map.Entry<String, Timer> entry : registry.getTimers().entrySet()) {
      Timer timer = entry.getValue();
      // Dropwizard timers hold nanoseconds; Prometheus' convention is seconds.
      summary(
          out, sanitize(entry.getKey()) + "_seconds", timer.getSnapshot(), timer.getCount(), 1e-9);
    }
    return out.toString();
  }

  /** Prometheus names allow [a-zA-Z0-9_:] and must not start with a digit. */
  static String sanitize(String name) {
    String cleaned = name.replaceAll("[^a-zA-Z0-9_:]", "_");
    return Character.isDigit(cleaned.charAt(0)) ? "_" + cleaned : cleaned;
  }

  private static void counter(StringBuilder out, String name, long value) {
    String total = name.endsWith("_total") ? name : name + "_total";
    out.append("# TYPE ").append(total).append(" counter\n");
    out.append(total).append(' ').append(value).append('\n');
  }

  private static void gauge(StringBuilder out, String name, double value) {
    out.append("# TYPE ").append(name).append(" gauge\n");
    out.append(name).append(' ').append(number(value)).append('\n');
  }

  private static void summary(
      StringBuilder out, String name, Snapshot snapshot, long count, double scale) {
    out.append("# TYPE ").append(name).append(" summary\n");
    for (double quantile : new double[] {0.5, 0.99, 0.999}) {
      out.append(name)
          .append("{quantile=\"")
          .append(quantile)
          .append("\"} ")
          .append(number(snapshot.getValue(quantile) * scale))
          .append('\n');
    }
    out.append(name).append("_count ").append(count).append('\n');
  }

  private static String number(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    return Double.toString(value);
  }
}
