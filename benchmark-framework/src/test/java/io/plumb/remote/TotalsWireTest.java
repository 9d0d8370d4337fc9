package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.WorkerSpecs.Totals;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The totals a worker answers, encoded the way WorkerServer writes and HttpWorker reads them. */
class TotalsWireTest {
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void totalsRoundTripThroughTheWireForm() throws Exception {
    Totals totals =
        new Totals(
            Map.of(0, SequenceRanges.range(0, 100), 3, SequenceRanges.range(0, 7)),
            Map.of(0, SequenceRanges.range(100, 102)),
            Map.of(
                "topic/sub",
                Map.of(
                    0,
                    new SequenceRanges(new long[] {0, 40, 41, 100}),
                    3,
                    SequenceRanges.range(0, 7)),
                "tópico/sub",
                Map.of(0, SequenceRanges.range(5_000_000_000L, 5_000_000_001L))),
            2);
    Totals back = overTheWire(totals);
    assertEquals(totals, back);
    assertEquals(99, back.distinct("topic/sub", 0));
    assertEquals(7, back.distinct("topic/sub", 3));
    assertEquals(0, back.distinct("topic/sub", 1));
    assertEquals(0, back.distinct("other/sub", 0));
    assertEquals(1, back.distinct("tópico/sub", 0));
    assertEquals(SequenceRanges.range(40, 41), back.missing("topic/sub", 0));
    assertEquals(SequenceRanges.range(100, 102), back.failed(0));
  }

  /**
   * OMB's 1M-topic file puts 2,000,000 producers on each of two workers: their totals must stay a
   * few bytes an entry, where JSON took about 30.
   */
  @Test
  void aProducerWhoseMessagesAllArrivedTakesAFewBytes() {
    int producers = 100_000;
    Map<Integer, SequenceRanges> acked = new HashMap<>();
    Map<String, Map<Integer, SequenceRanges>> received = new HashMap<>();
    for (int id = 0; id < producers; id++) {
      acked.put(id * 2, SequenceRanges.range(0, 1_000 + id % 1_000));
      received
          .computeIfAbsent("topic-" + id / 4 + "/sub-000", key -> new HashMap<>())
          .put(id * 2, SequenceRanges.range(0, 1_000 + id % 1_000));
    }
    Totals totals = new Totals(acked, Map.of(), received, 0);
    byte[] encoded = TotalsCodec.encode(totals);
    // id (3 bytes), bound count, 0, end (2 bytes): 7 bytes an entry, plus each subscription's key.
    assertTrue(
        encoded.length < producers * 2 * 7 + received.size() * 20,
        encoded.length + " bytes for " + producers + " producers");
    assertEquals(totals, TotalsCodec.decode(encoded));
  }

  @Test
  void malformedTotalsAreRefused() {
    byte[] good =
        TotalsCodec.encode(
            new Totals(Map.of(7, SequenceRanges.range(3, 9)), Map.of(), Map.of(), 0));
    // version, duplicates, acked: 1 entry, id 7, 2 bounds, 3, +6; failed: 0; received: 0
    assertEquals("[1, 0, 1, 7, 2, 3, 6, 0, 0]", java.util.Arrays.toString(good));
    assertEquals(SequenceRanges.range(3, 9), TotalsCodec.decode(good).acked(7));

    byte[] emptyRange = {1, 0, 1, 7, 2, 3, 0, 0, 0};
    assertThrows(IllegalArgumentException.class, () -> TotalsCodec.decode(emptyRange));
    byte[] oddBounds = {1, 0, 1, 7, 1, 3, 0, 0};
    assertThrows(IllegalArgumentException.class, () -> TotalsCodec.decode(oddBounds));
    byte[] cutShort = {1, 0, 1, 7, 2, 3};
    assertThrows(IllegalArgumentException.class, () -> TotalsCodec.decode(cutShort));
    byte[] trailing = {1, 0, 1, 7, 2, 3, 6, 0, 0, 0};
    assertThrows(IllegalArgumentException.class, () -> TotalsCodec.decode(trailing));
    byte[] otherVersion = {2, 0, 0, 0, 0};
    assertThrows(IllegalArgumentException.class, () -> TotalsCodec.decode(otherVersion));
    byte[] hugeCount = {1, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f};
    assertThrows(IllegalArgumentException.class, () -> TotalsCodec.decode(hugeCount));
  }

  /** WorkerServer answers the encoded totals as JSON (base64); HttpWorker reads them back. */
  private Totals overTheWire(Totals totals) throws Exception {
    String text =
        json.writeValueAsString(new WireMessages.EncodedTotals(TotalsCodec.encode(totals)));
    return TotalsCodec.decode(json.readValue(text, WireMessages.EncodedTotals.class).data());
  }
}
