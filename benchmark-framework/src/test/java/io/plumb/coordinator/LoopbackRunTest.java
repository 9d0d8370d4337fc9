package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.result.Counters;
import io.plumb.result.ResultJson;
import io.plumb.result.RunReport;
import io.plumb.stats.Histograms;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoopbackRunTest {
  @TempDir Path dir;

  @Test
  void everyMessageIsAccountedForAndTheResultCarriesSaneLatencies() throws Exception {
    RunReport report =
        LoopbackRuns.run(
            dir,
            """
            name: loopback-e2e
            topics: 2
            partitionsPerTopic: 3
            keyDistributor: KEY_ROUND_ROBIN
            messageSize: 256
            subscriptionsPerTopic: 2
            consumerPerSubscription: 2
            producersPerTopic: 2
            producerRate: 20000
            testDurationSeconds: 2
            warmupDurationSeconds: 1
            """,
            "");
    assertTrue(report.complete(), report.incompleteReason());
    Counters counters = report.counters();
    assertTrue(counters.sent() > 50_000, "sent " + counters.sent());
    assertEquals(counters.sent(), counters.acknowledged());
    assertEquals(0, counters.failed());
    assertEquals(
        counters.sent() * 2, counters.received(), "each of 2 subscriptions receives everything");
    assertEquals(0, counters.lost());
    assertEquals(0, counters.duplicated());
    assertEquals(0, counters.outOfOrder());
    assertEquals(0, counters.foreign());

    JsonNode json = ResultJson.render(report);
    assertEquals("loopback-e2e", json.get("workload").asText());
    assertEquals("Loopback", json.get("driver").asText());
    // As OMB writes it: consumerPerSubscription, not subscriptions x consumers (4 here).
    assertEquals(2, json.get("consumersPerTopic").asInt());
    assertEquals(2, json.get("publishRate").size(), "one rate sample per measured second");
    // Open loop: sends that fell behind during warm-up catch up while measuring, so allow above.
    double rate = json.get("throughput").get("publishRateMsgPerSec").asDouble();
    assertTrue(rate > 18_000 && rate < 26_000, "publish rate " + rate);
    double p50 = json.get("aggregatedPublishLatency50pct").asDouble();
    double p99 = json.get("aggregatedPublishLatency99pct").asDouble();
    double max = json.get("aggregatedPublishLatencyMax").asDouble();
    assertTrue(p50 >= 0 && p50 <= p99 && p99 <= max, p50 + " " + p99 + " " + max);
    assertTrue(
        json.get("aggregatedEndToEndLatency99pct").asDouble()
            <= json.get("aggregatedEndToEndLatencyMax").asDouble());
    JsonNode publish = json.get("latency").get("publish");
    long count = publish.get("count").asLong();
    assertTrue(count > 30_000, "measured acknowledgements " + count);
    assertEquals(count, Histograms.decode(publish.get("histogram").asText()).getTotalCount());
    assertEquals(
        json.get("latency").get("endToEnd").get("count").asLong(),
        Histograms.decode(json.get("latency").get("endToEnd").get("histogram").asText())
            .getTotalCount());
    assertTrue(json.get("latency").get("publish").has("p99.9999"));
    assertTrue(json.get("complete").asBoolean());
  }
}
