package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.MetricRegistry;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
  @Test
  void writesCountersMetersAndGaugesInTheTextFormat() {
    MetricRegistry registry = new MetricRegistry();
    registry.counter("kafka.client.retries").inc(3);
    registry.meter("sent").mark(5);
    registry.gauge("lag", () -> () -> 42);
    String text = PrometheusText.render(registry);
    assertEquals(
        """
        # TYPE kafka_client_retries_total counter
        kafka_client_retries_total 3
        # TYPE sent_total counter
        sent_total 5
        # TYPE sent_rate1m gauge
        sent_rate1m 0.0
        # TYPE lag gauge
        lag 42.0
        """,
        text);
  }
}
