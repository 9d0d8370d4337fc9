package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.stats.SequenceRanges;
import io.plumb.worker.WorkerSpecs.Totals;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The totals a worker answers, as JSON the way WorkerServer writes and HttpWorker reads them. */
class TotalsWireTest {
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void receivedRangesRoundTripAsCompactArrays() throws Exception {
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
                    SequenceRanges.range(0, 7))),
            2);
    String text = json.writeValueAsString(totals);
    assertTrue(text.contains("[0,40,41,100]"), text);
    Totals back = readAsHttpWorkerDoes(text);
    assertEquals(totals, back);
    assertEquals(99, back.distinct("topic/sub", 0));
    assertEquals(7, back.distinct("topic/sub", 3));
    assertEquals(0, back.distinct("topic/sub", 1));
    assertEquals(0, back.distinct("other/sub", 0));
    assertEquals(SequenceRanges.range(40, 41), back.missing("topic/sub", 0));
    assertEquals(SequenceRanges.range(100, 102), back.failed(0));
  }

  @Test
  void malformedRangesAreRefused() throws Exception {
    String overlapping =
        "{\"ackedByProducer\":{},\"failedByProducer\":{},"
            + "\"receivedBySubscription\":{\"t/s\":{\"0\":{\"bounds\":[0,10,5,20]}}},"
            + "\"duplicatesAcrossWorkers\":0}";
    assertThrows(IllegalArgumentException.class, () -> readAsHttpWorkerDoes(overlapping));
  }

  /** HttpWorker reads the body as a tree of plain values first, then converts it. */
  private Totals readAsHttpWorkerDoes(String text) throws Exception {
    return json.convertValue(json.readValue(text, Object.class), Totals.class);
  }
}
