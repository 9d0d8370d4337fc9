package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens generated reports in a real headless Chromium and reads back what each chart drew: the page
 * marks every canvas with the points Chart.js laid out inside the plot area and the pixels of the
 * series' colours there. An empty or broken chart shows 0 and fails.
 */
class ReportBrowserTest {
  private static final List<String> CHARTS =
      List.of(
          "publish",
          "endToEnd",
          "serviceTime",
          "publishRate",
          "acknowledgeRate",
          "consumeRate",
          "backlog",
          "publishLatency99pct",
          "endToEndLatency99pct",
          "workerCpuCores");

  @TempDir static Path dir;
  private static Path slow;
  private static Path fast;

  /** What one canvas reported. */
  private record Drawn(int points, int ink) {}

  @BeforeAll
  static void runTwoRates() throws IOException {
    slow = LoopbackResults.write(dir, "loopback-2k", 2_000, 256);
    fast = LoopbackResults.write(dir, "loopback-8k", 8_000, 256);
  }

  private static Map<String, Drawn> chartsIn(String dom) {
    Map<String, Drawn> charts = new LinkedHashMap<>();
    Matcher canvas = Pattern.compile("<canvas[^>]*>").matcher(dom);
    while (canvas.find()) {
      String tag = canvas.group();
      charts.put(
          attribute(tag, "data-chart"),
          new Drawn(
              Integer.parseInt(attribute(tag, "data-points")),
              Integer.parseInt(attribute(tag, "data-ink"))));
    }
    return charts;
  }

  private static String attribute(String tag, String name) {
    Matcher value = Pattern.compile(name + "=\"([^\"]*)\"").matcher(tag);
    assertTrue(value.find(), "no " + name + " in " + tag);
    return value.group(1);
  }

  private static boolean sampledBrokers(Path result) throws IOException {
    return !new ObjectMapper()
        .readTree(result.toFile())
        .path("resources")
        .path("summary")
        .path("brokers")
        .isEmpty();
  }

  private static int periods(Path result) throws IOException {
    return new ObjectMapper().readTree(result.toFile()).path("periodSeconds").size();
  }

  private static String render(Path subdirectory, List<Path> results) throws Exception {
    Files.createDirectories(subdirectory);
    Path html = subdirectory.resolve("report.html");
    Report.write(results, html);
    return HeadlessChromium.dumpDom(html, subdirectory);
  }

  @Test
  void everyChartDrawsEveryResult() throws Exception {
    String dom = render(dir.resolve("both"), List.of(slow, fast));
    assertTrue(dom.contains("data-charts-failed=\"0\""), "a chart threw");
    // Local broker processes running beside the test (a developer's, or a driver suite's) are
    // sampled into the results, and their CPU gets a chart of its own.
    List<String> expected = new ArrayList<>(CHARTS);
    if (sampledBrokers(slow) || sampledBrokers(fast)) {
      expected.add("brokerCpuCores");
    }
    assertTrue(dom.contains("data-charts-drawn=\"" + expected.size() + "\""), "charts drawn");
    Map<String, Drawn> charts = chartsIn(dom);
    assertEquals(expected, List.copyOf(charts.keySet()));
    for (String latency : CHARTS.subList(0, 3)) {
      // Two curves of 73 percentiles and the maximum each (zeros have no place on a log axis).
      assertTrue(charts.get(latency).points() >= 2 * 60, latency + ": " + charts.get(latency));
      assertTrue(charts.get(latency).ink() > 500, latency + ": " + charts.get(latency));
    }
    // One point per period of each run (four quarter-second periods, fewer on a stalled host).
    int periods = periods(slow) + periods(fast);
    assertTrue(periods >= 4, "periods: " + periods);
    for (String timeline : CHARTS.subList(3, CHARTS.size())) {
      assertEquals(periods, charts.get(timeline).points(), timeline);
      assertTrue(charts.get(timeline).ink() > 100, timeline + ": " + charts.get(timeline));
    }
  }

  @Test
  void aSeriesWithoutDataLeavesItsChartVisiblyEmpty() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode result = (ObjectNode) mapper.readTree(slow.toFile());
    result.putArray("publishRate");
    Path emptied = dir.resolve("emptied.json");
    mapper.writeValue(emptied.toFile(), result);

    Map<String, Drawn> charts = chartsIn(render(dir.resolve("emptied"), List.of(emptied)));
    assertEquals(new Drawn(0, 0), charts.get("publishRate"));
    assertEquals(periods(slow), charts.get("consumeRate").points());
    assertTrue(charts.get("consumeRate").ink() > 50);
  }

  @Test
  void faultsAreMarkedOnEveryTimeline() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode result = (ObjectNode) mapper.readTree(slow.toFile());
    // No rate points at all, so whatever ink the chart holds is the fault's marker.
    result.putArray("publishRate");
    ObjectNode fault = result.putArray("faults").addObject();
    fault
        .put("index", 1)
        .put("action", "kill")
        .put("appliedSeconds", 0.25)
        .put("undoneSeconds", 0.5);
    fault.putArray("nodes").add("2");
    Path marked = dir.resolve("marked.json");
    mapper.writeValue(marked.toFile(), result);

    String dom = render(dir.resolve("marked"), List.of(marked));
    assertTrue(dom.contains("data-charts-failed=\"0\""), "a chart threw");
    Drawn publishRate = chartsIn(dom).get("publishRate");
    assertEquals(0, publishRate.points());
    assertTrue(publishRate.ink() > 20, "a marker in the result's colour: " + publishRate);
  }
}
