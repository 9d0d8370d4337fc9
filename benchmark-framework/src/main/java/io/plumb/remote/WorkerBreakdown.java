package io.plumb.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.result.Percentiles;
import io.plumb.stats.PeriodStats;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The result's {@code workers} field: each worker's role, clock offset and share of the measured
 * phase and the drain after it, like the result's latencies (warm-up left out).
 */
final class WorkerBreakdown {
  private static final ObjectMapper JSON = new ObjectMapper();

  private WorkerBreakdown() {}

  static ObjectNode of(WorkerRoles roles, List<RemoteMember> members) {
    ObjectNode node = JSON.createObjectNode();
    node.put("roles", roles.name().toLowerCase(Locale.ROOT));
    node.put("clockReference", "coordinator");
    node.put(
        "note",
        "per-worker counts and latencies cover the measured phase and the drain after it, like the aggregated latencies (warm-up left out); clock offsets are worker minus coordinator, and end-to-end latency is corrected by the producing and consuming workers' offset difference");
    ArrayNode list = node.putArray("workers");
    for (RemoteMember member : members) {
      ObjectNode entry = list.addObject();
      entry.put("url", member.name());
      entry.put("producers", member.producers);
      entry.put("consumers", member.consumers);
      entry.put("clockOffsetMillis", member.clock.offsetNanos() / 1e6);
      entry.put("clockUncertaintyMillis", member.clock.uncertaintyNanos() / 1e6);
      entry.put("lost", member.lost != null);
      if (member.lost != null) {
        entry.put("lostReason", member.lost);
      }
      PeriodStats total = member.total.build();
      entry.put("sent", total.sent());
      entry.put("acknowledged", total.acknowledged());
      entry.put("failed", total.failed());
      entry.put("received", total.received());
      entry.put("duplicates", total.duplicates());
      entry.put("consumerErrors", total.consumerErrors());
      entry.put("negativeEndToEnd", total.negativeEndToEnd());
      latency(entry.putObject("publishLatencyMillis"), total.publishLatency());
      latency(entry.putObject("endToEndLatencyMillis"), total.endToEndLatency());
    }
    return node;
  }

  private static void latency(ObjectNode node, Histogram histogram) {
    node.put("count", histogram.getTotalCount());
    node.put("p50", Percentiles.millis(histogram, 50));
    node.put("p99", Percentiles.millis(histogram, 99));
    node.put("max", Percentiles.maxMillis(histogram));
  }
}
