package io.plumb.remote;

import com.fasterxml.jackson.annotation.JsonInclude;
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
      list.add(JSON.valueToTree(WorkerFigures.of(member)));
    }
    return node;
  }

  /** One worker's entry, its fields in this order; {@code lostReason} only for a lost worker. */
  record WorkerFigures(
      String url,
      int producers,
      int consumers,
      double clockOffsetMillis,
      double clockUncertaintyMillis,
      boolean lost,
      @JsonInclude(JsonInclude.Include.NON_NULL) String lostReason,
      long sent,
      long acknowledged,
      long failed,
      long received,
      long duplicates,
      long consumerErrors,
      long negativeEndToEnd,
      LatencyFigures publishLatencyMillis,
      LatencyFigures endToEndLatencyMillis) {

    static WorkerFigures of(RemoteMember member) {
      PeriodStats total = member.total.build();
      return new WorkerFigures(
          member.name(),
          member.producers,
          member.consumers,
          member.clock.offsetNanos() / 1e6,
          member.clock.uncertaintyNanos() / 1e6,
          member.lost != null,
          member.lost,
          total.sent(),
          total.acknowledged(),
          total.failed(),
          total.received(),
          total.duplicates(),
          total.consumerErrors(),
          total.negativeEndToEnd(),
          LatencyFigures.of(total.publishLatency()),
          LatencyFigures.of(total.endToEndLatency()));
    }
  }

  /** A worker's latency in brief, milliseconds: its share, not the run's merged distribution. */
  record LatencyFigures(long count, double p50, double p99, double max) {
    static LatencyFigures of(Histogram histogram) {
      return new LatencyFigures(
          histogram.getTotalCount(),
          Percentiles.millis(histogram, 50),
          Percentiles.millis(histogram, 99),
          Percentiles.maxMillis(histogram));
    }
  }
}
