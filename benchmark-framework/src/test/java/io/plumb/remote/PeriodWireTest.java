package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.ProducerThreadTimes;
import org.junit.jupiter.api.Test;

/**
 * A remote worker's period keeps its producer threads' own times over the wire: the coordinator
 * weighs them as they are, never against its own core count.
 */
class PeriodWireTest {
  private final ObjectMapper json = new ObjectMapper();

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
      String body = json.writeValueAsString(WireMessages.Period.of(sent));
      PeriodStats back = json.readValue(body, WireMessages.Period.class).toStats();
      assertEquals(times, back.producerThreads(), body);
      assertEquals(700_000_000L, back.producerBlockedNanos());
      assertEquals(1_000, back.sent());
    }
  }

  @Test
  void aPeriodFromAWorkerWithoutThreadTimesReadsAsNone() throws Exception {
    PeriodStats empty = new PeriodStats.Builder().build();
    String body =
        json.writeValueAsString(WireMessages.Period.of(empty))
            .replaceAll(",\\\"producerThreads\\\":\\{[^}]*\\}", "");
    assertEquals(false, body.contains("producerThreads"), body);
    PeriodStats back = json.readValue(body, WireMessages.Period.class).toStats();
    assertEquals(ProducerThreadTimes.NONE, back.producerThreads(), body);
  }
}
