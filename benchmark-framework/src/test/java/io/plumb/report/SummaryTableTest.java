package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTableTest {
  @Test
  void latenciesKeepThreeFiguresAtEveryMagnitude() {
    assertEquals("0.000312", SummaryTable.millis(0.000312));
    assertEquals("0.0500", SummaryTable.millis(0.05));
    assertEquals("3.57", SummaryTable.millis(3.5712));
    assertEquals("1,234", SummaryTable.millis(1234.4));
    assertEquals("0", SummaryTable.millis(0));
  }

  @Test
  void endToEndAcrossHostsCarriesTheClockUncertaintyBesideEachFigureAndTheWarningInItsRow() {
    ObjectNode acrossHosts = result();
    ObjectNode endToEnd = (ObjectNode) acrossHosts.path("latency").path("endToEnd");
    endToEnd.put("clockUncertaintyMillis", 0.8);
    endToEnd.put(
        "clockWarning", "end-to-end latency across these hosts is known only to ± 0.800 ms");
    String html =
        SummaryTable.render(
            List.of(
                new ResultFile(Path.of("remote.json"), acrossHosts, Map.of()),
                new ResultFile(Path.of("local.json"), result(), Map.of())),
            List.of("remote", "local"));
    assertTrue(html.contains("<th>p50</th><td>2.50 ± 0.800</td><td>2.50</td>"), html);
    assertTrue(html.contains("<th>max</th><td>9.00 ± 0.800</td><td>9.00</td>"), html);
    assertTrue(
        html.contains(
            "<th>clocks across hosts</th><td>end-to-end latency across these hosts is known only"
                + " to ± 0.800 ms</td><td></td>"),
        html);
    // Publish latency is timed on one clock: nothing beside it.
    assertFalse(html.contains("<th>p50</th><td>1.00 ±"), html);
  }

  @Test
  void aLocalRunHasNoClocksRow() {
    String html =
        SummaryTable.render(
            List.of(new ResultFile(Path.of("local.json"), result(), Map.of())), List.of("local"));
    assertFalse(html.contains("clocks across hosts"), html);
    assertFalse(html.contains("±"), html);
  }

  private static ObjectNode result() {
    ObjectNode json = new ObjectMapper().createObjectNode();
    ObjectNode latency = json.putObject("latency");
    ObjectNode publish = latency.putObject("publish");
    publish.put("count", 100).put("p50", 1.0).put("max", 3.0);
    ObjectNode endToEnd = latency.putObject("endToEnd");
    endToEnd.put("count", 100).put("p50", 2.5).put("max", 9.0);
    return json;
  }
}
