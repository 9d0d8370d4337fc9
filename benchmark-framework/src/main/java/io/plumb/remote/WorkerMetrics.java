package io.plumb.remote;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.SharedMetricRegistries;
import io.plumb.stats.PeriodStats;

/**
 * A worker's live counters and rates for {@code /metrics}. The registry is Dropwizard's shared
 * registry named {@value #REGISTRY}, so a driver can add its client's metrics with {@code
 * SharedMetricRegistries.getOrCreate("plumb")} and they appear beside the worker's own.
 *
 * <p>Counts advance each time the coordinator collects a period (every second or so during a run).
 */
final class WorkerMetrics {
  static final String REGISTRY = "plumb";

  private final MetricRegistry registry = SharedMetricRegistries.getOrCreate(REGISTRY);
  private final Meter sent = registry.meter("plumb_worker_messages_sent");
  private final Meter sentBytes = registry.meter("plumb_worker_bytes_sent");
  private final Meter acknowledged = registry.meter("plumb_worker_messages_acknowledged");
  private final Meter failed = registry.meter("plumb_worker_send_failures");
  private final Meter received = registry.meter("plumb_worker_messages_received");
  private final Meter receivedBytes = registry.meter("plumb_worker_bytes_received");
  private final Counter duplicates = registry.counter("plumb_worker_duplicates");
  private final Counter consumerErrors = registry.counter("plumb_worker_consumer_errors");
  private final Counter leaseExpiries = registry.counter("plumb_worker_lease_expiries");
  private final Counter unauthorized = registry.counter("plumb_worker_unauthorized_requests");

  MetricRegistry registry() {
    return registry;
  }

  void record(PeriodStats period) {
    sent.mark(period.sent());
    sentBytes.mark(period.sentBytes());
    acknowledged.mark(period.acknowledged());
    failed.mark(period.failed());
    received.mark(period.received());
    receivedBytes.mark(period.receivedBytes());
    duplicates.inc(period.duplicates());
    consumerErrors.inc(period.consumerErrors());
  }

  void leaseExpired() {
    leaseExpiries.inc();
  }

  void unauthorized() {
    unauthorized.inc();
  }
}
