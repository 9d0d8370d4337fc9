package io.plumb.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.remote.CrossHostLatency;
import io.plumb.remote.DistributedWorkers;
import io.plumb.result.RunReport;
import io.plumb.worker.Worker;

/**
 * What a result says of remote workers: each one's role, clock offset and share, and beside the
 * end-to-end latency how far the clock offsets leave it in doubt. Nothing for a local worker.
 */
final class WorkersJson {
  private WorkersJson() {}

  static void add(ObjectNode json, Worker worker, RunReport report) {
    if (!(worker instanceof DistributedWorkers ensemble)) {
      return;
    }
    json.set("workers", ensemble.breakdown());
    ensemble
        .endToEndClockUncertaintyNanos()
        .ifPresent(
            nanos -> CrossHostLatency.of(nanos, report.measured().endToEndLatency()).addTo(json));
  }
}
