package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the report holds besides its charts: the table, search outcomes, files for other tools. */
class ReportContentTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir static Path dir;
  private static Path small;
  private static Path large;

  @BeforeAll
  static void runTwoSizes() throws IOException {
    small = LoopbackResults.write(dir, "size-100", 2_000, 100);
    large = LoopbackResults.write(dir, "size-4000", 2_000, 4_000);
  }

  private static String report(String name, List<Path> results) throws IOException {
    Path html = dir.resolve(name).resolve("report.html");
    Report.write(results, html);
    return Files.readString(html);
  }

  /**
   * A copy of the small run's result with {@code edit} made to it, as {@code name}.json: a result
   * with what a loopback run does not write (a search, untimed acknowledgements).
   */
  private static Path smallWith(String name, Consumer<ObjectNode> edit) throws IOException {
    ObjectNode result = (ObjectNode) MAPPER.readTree(small.toFile());
    edit.accept(result);
    Path edited = dir.resolve(name + ".json");
    MAPPER.writeValue(edited.toFile(), result);
    return edited;
  }

  @Test
  void opensOfflineWithChartJsInlined() throws IOException {
    String page = report("offline", List.of(small, large));
    assertTrue(page.contains("Chart.js v" + ChartLibrary.version()), "Chart.js is inlined");
    assertFalse(page.contains("sourceMappingURL"), "no reference to a missing source map");
    assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(page).find(), "no remote");
    assertFalse(page.contains("<link"), "no external stylesheet");
  }

  @Test
  void tableComparesResultsAndNamesOnlyTheSettingsThatDiffer() throws IOException {
    String page = report("table", List.of(small, large));
    for (String row :
        List.of(
            "target (msg/s)",
            "published (MB/s)",
            "p99.99",
            "lost",
            "duplicated",
            "errors",
            "generator")) {
      assertTrue(page.contains("<th>" + row + "</th>"), row);
    }
    assertTrue(page.contains("size-100 · Loopback"), "results are labelled");
    Matcher size =
        Pattern.compile("<th>workload.messageSize</th><td>([^<]*)</td><td>([^<]*)</td>")
            .matcher(page);
    assertTrue(size.find(), "the message size differs, so it is listed");
    assertEquals(List.of("100", "4000"), List.of(size.group(1), size.group(2)));
    assertFalse(page.contains("<th>workload.producerRate</th>"), "the same rate is not listed");
    assertFalse(page.contains("<th>driver.driverClass</th>"), "the same driver is not listed");
  }

  @Test
  void aSearchIsShownWhateverItsShapeAndNeverRequired() throws IOException {
    assertFalse(report("nosearch", List.of(small, large)).contains("Search"));

    Path searched =
        smallWith(
            "searched",
            result -> {
              ObjectNode search = result.putObject("search");
              search.put("kind", "peak");
              search.put("peakRateMsgPerSec", 123456);
              search.putArray("steps").addObject().put("rateMsgPerSec", 1000).put("stable", true);
              search.withArray("steps").addObject().put("rateMsgPerSec", 2000).put("stable", false);
            });

    String page = report("search", List.of(searched, large));
    assertTrue(page.contains("<th>peakRateMsgPerSec</th><td>123,456</td><td>—</td>"), page);
    assertTrue(page.contains("<h3>Search: "));
    assertTrue(page.contains("<th>rateMsgPerSec</th><th>stable</th>"), "steps as a table");
    assertTrue(page.contains("<td>2,000</td><td>false</td>"), "every step");
  }

  @Test
  void theServiceTimeChartSaysWhichResultsLeaveOutUntimedAcknowledgements() throws IOException {
    assertFalse(report("timed", List.of(small, large)).contains("send time was no longer held"));

    Path untimed =
        smallWith(
            "untimed",
            result -> {
              ObjectNode latency = (ObjectNode) result.path("latency");
              latency.put("untimedAcknowledgements", 360);
              latency.put("untimedFromPercentile", 98.2);
            });

    String page = report("untimed", List.of(untimed, large));
    assertTrue(
        page.contains(
            "from the actual send, as OMB measures; size-100 · Loopback leaves out 360"
                + " acknowledgements whose send time was no longer held, so above p98.2 it may read"
                + " low"),
        page);
  }

  @Test
  void histogramsGoBesideTheReportAsHgrmInMicroseconds() throws IOException {
    report("hgrm", List.of(small, large));
    for (Path result : List.of(small, large)) {
      JsonNode latency = MAPPER.readTree(result.toFile()).path("latency");
      String stem = result.getFileName().toString().replace(".json", "");
      for (String family : List.of("publish", "serviceTime", "sendDelay", "endToEnd")) {
        Path hgrm = dir.resolve("hgrm").resolve(stem + "." + family + ".hgrm");
        String text = Files.readString(hgrm);
        assertTrue(text.startsWith("       Value     Percentile TotalCount 1/(1-Percentile)"));
        Matcher max =
            Pattern.compile("#\\[Max += +([0-9.]+), Total count += +(\\d+)]").matcher(text);
        assertTrue(max.find(), hgrm + " has HdrHistogram's footer");
        double maxMicros = latency.path(family).path("max").asDouble() * 1000;
        assertEquals(maxMicros, Double.parseDouble(max.group(1)), maxMicros * 0.002 + 0.001);
        assertEquals(latency.path(family).path("count").asLong(), Long.parseLong(max.group(2)));
      }
    }
  }

  @Test
  void periodLengthsPlaceTimelinesInSeconds() throws IOException {
    JsonNode result = MAPPER.readTree(small.toFile());
    List<Timeline.Point> rates = Timeline.of(result, "publishRate");
    assertEquals(result.path("publishRate").size(), rates.size());
    assertEquals(
        result.path("phases").path("measuredSeconds").asDouble(),
        rates.get(rates.size() - 1).seconds(),
        1e-6);
    for (int i = 1; i < rates.size(); i++) {
      assertTrue(rates.get(i).seconds() > rates.get(i - 1).seconds());
    }
  }
}
