package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A period in which nothing was acknowledged (or received) has no latency: the result JSON writes 0
 * there, as OMB does, but the report must not draw it as a latency of 0 ms.
 */
class LatencyTimelineGapTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final String OUTAGE =
      """
      {"workload": "w", "driver": "d", "throughput": {}, "counters": {},
       "periodSeconds": [1, 1, 1],
       "publishRate": [2000, 2000, 2000],
       "acknowledgeRate": [2000, 0, 4000],
       "consumeRate": [2000, 0, 4000],
       "backlog": [0, 2000, 0],
       "publishLatency99pct": [5.0, 0.0, 1200.0],
       "endToEndLatency99pct": [6.0, 0.0, 1300.0]}
      """;

  @Test
  void aPeriodWithNothingAcknowledgedHasNoPublishLatencyOfZero() throws Exception {
    JsonNode result = MAPPER.readTree(OUTAGE);

    for (String series : List.of("publishLatency99pct", "endToEndLatency99pct")) {
      List<Timeline.Point> points = Timeline.of(result, series);
      for (Timeline.Point point : points) {
        assertFalse(
            point.seconds() == 2 && point.value() == 0,
            series + ": the outage's period drawn as 0 ms: " + points);
      }
      assertEquals(5.0 + (series.startsWith("end") ? 1 : 0), points.get(0).value(), 1e-9);
      assertEquals(1200.0 + (series.startsWith("end") ? 100 : 0), points.get(2).value(), 1e-9);
    }
    // A rate of 0 is a figure, not a gap.
    assertEquals(0, Timeline.of(result, "acknowledgeRate").get(1).value(), 1e-9);
  }

  @Test
  void theChartBreaksItsLineThereAndItsDataStayValidJson() throws Exception {
    JsonNode json = MAPPER.readTree(OUTAGE);
    ResultFile result = new ResultFile(Path.of("outage.json"), json, Map.of());

    String page = ReportPage.render(List.of(result), List.of(), List.of(), Path.of("r.html"));

    Matcher data =
        Pattern.compile("id=\"plumb-data\">(.*?)</script>", Pattern.DOTALL).matcher(page);
    assertTrue(data.find());
    JsonNode charts = MAPPER.readTree(data.group(1)).path("timelines");
    JsonNode publish = null;
    for (JsonNode chart : charts) {
      if (chart.path("id").asText().equals("publishLatency99pct")) {
        publish = chart.path("series").get(0).path("points");
      }
    }
    assertEquals(3, publish.size(), publish.toString());
    assertTrue(publish.get(1).get(1).isNull(), publish.toString());
    assertEquals(1200.0, publish.get(2).get(1).asDouble(), 1e-9);
  }
}
