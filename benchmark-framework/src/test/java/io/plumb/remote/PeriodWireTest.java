package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.ProducerThreadTimes;
import org.junit.jupiter.api.Test;

/**
 * A remote worker's period keeps its producer threads' own times over the wire: the coordinator
 * weighs them as they are, never against its own core count.
 */
class PeriodWireTest {
  private final ObjectMapper json = WireJson.MAPPER;

  @Test
  void producerThreadTimesCrossTheWireUnchanged() throws Exception {
    for (ProducerThreadTimes times :
        new ProducerThreadTimes[] {
          new ProducerThreadTimes(
              2_000_000_000L, 960_000_000L, 1_040_000_000L, 1_000_000_000L, 850_000_000L),
          new ProducerThreadTimes(1_000_000_000L, 300_000_000L, -1, 1_000_000_000L, -1)
        }) {
      PeriodStats sent =
          new PeriodStats.Builder()
              .addSent(1_000, 100_000, 700_000_000L)
              .addProducerThreads(times)
              .build();
      String body = json.writeValueAsString(sent);
      PeriodStats back = json.readValue(body, PeriodStats.class);
      assertEquals(times, back.producerThreads(), body);
      assertEquals(700_000_000L, back.producerBlockedNanos());
      assertEquals(1_000, back.sent());
    }
  }

  @Test
  void histogramsTravelInTheirCompressedEncodingAndComeBackWhole() throws Exception {
    PeriodStats sent = new PeriodStats.Builder().build();
    sent.publishLatency().recordValue(12_345);
    sent.endToEndLatency().recordValue(99_999);
    String body = json.writeValueAsString(sent);
    assertTrue(body.contains("\"publishLatency\":\"HISTF"), body);
    PeriodStats back = json.readValue(body, PeriodStats.class);
    assertEquals(sent.publishLatency(), back.publishLatency());
    assertEquals(sent.endToEndLatency(), back.endToEndLatency());
    assertEquals(0, back.serviceTime().getTotalCount());
  }

  @Test
  void aPeriodFromAWorkerWithoutThreadTimesReadsAsNone() throws Exception {
    PeriodStats empty = new PeriodStats.Builder().build();
    String body =
        json.writeValueAsString(empty).replaceAll(",\\\"producerThreads\\\":\\{[^}]*\\}", "");
    assertEquals(false, body.contains("producerThreads"), body);
    PeriodStats back = json.readValue(body, PeriodStats.class);
    assertEquals(ProducerThreadTimes.NONE, back.producerThreads(), body);
  }
}
