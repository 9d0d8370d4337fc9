package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.stats.Histograms;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CrossHostLatencyTest {

  @Test
  void anUncertaintyOverATenthOfTheMedianIsSaidPlainly() {
    CrossHostLatency latency = new CrossHostLatency(0.6, 5.0);
    assertTrue(latency.uncertain());
    assertEquals(
        Optional.of("end-to-end latency across these hosts is known only to ± 0.600 ms"),
        latency.warning());
    assertEquals(
        "end-to-end latency across hosts: clock offsets known to ± 0.600 ms (p50 5.000 ms);"
            + " end-to-end latency across these hosts is known only to ± 0.600 ms",
        latency.line());
  }

  @Test
  void aTenthOfTheMedianOrLessIsStatedWithoutTheWarning() {
    CrossHostLatency latency = new CrossHostLatency(0.5, 5.0);
    assertFalse(latency.uncertain());
    assertEquals(Optional.empty(), latency.warning());
    assertEquals(
        "end-to-end latency across hosts: clock offsets known to ± 0.500 ms (p50 5.000 ms)",
        latency.line());
  }

  @Test
  void theMedianComesFromTheHistogramAndTheUncertaintyFromNanoseconds() {
    Histogram endToEnd = Histograms.forRecording();
    for (int i = 0; i < 99; i++) {
      endToEnd.recordValue(2_000_000);
    }
    endToEnd.recordValue(90_000_000);
    CrossHostLatency latency = CrossHostLatency.of(250_000, endToEnd);
    assertEquals(0.25, latency.uncertaintyMillis(), 1e-9);
    assertEquals(2.0, latency.p50Millis(), 0.01);
    // 0.25 ms is more than a tenth of a 2 ms median, however long the tail.
    assertTrue(latency.uncertain());
  }

  @Test
  void theResultsEndToEndGetsTheUncertaintyAndTheWarningWhereDue() {
    ObjectNode json = new ObjectMapper().createObjectNode();
    json.putObject("latency").putObject("endToEnd").put("p50", 5.0);
    new CrossHostLatency(0.2, 5.0).addTo(json);
    assertEquals(0.2, json.at("/latency/endToEnd/clockUncertaintyMillis").asDouble());
    assertTrue(json.at("/latency/endToEnd/clockWarning").isMissingNode());

    new CrossHostLatency(0.9, 5.0).addTo(json);
    assertEquals(
        "end-to-end latency across these hosts is known only to ± 0.900 ms",
        json.at("/latency/endToEnd/clockWarning").asText());
  }
}
