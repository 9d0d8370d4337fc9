package io.plumb.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The brokers' entries of the summary and of each period, in MB and cores. */
class ResourceReportBrokersTest {
  private static final long MB = 1024 * 1024;

  private static ResourceSample sample(double seconds, ResourceSample.Broker broker) {
    return new ResourceSample(
        seconds, 0.5, 0.1, 0, 0, 0, Map.of(), "none", 0, 0, 1, 0, 0, 0, 0, Map.of("kafka", broker));
  }

  @Test
  void summaryTakesThePeakResidentAndTheWholeWritesAndPeriodsTheirOwn() {
    ResourceSample period = sample(2, new ResourceSample.Broker(1.25, 300 * MB, 20 * MB));
    ResourceSample whole = sample(4, new ResourceSample.Broker(1.5, 310 * MB, 40 * MB));
    ResourceReport report =
        new ResourceReport(
            "this JVM", 2, List.of(period), whole, 0, 1, Map.of("kafka", 512 * MB), Map.of());

    JsonNode json = report.toJson();

    JsonNode summary = json.path("summary").path("brokers").path("kafka");
    assertEquals(1.5, summary.path("cpuCores").asDouble());
    assertEquals(512, summary.path("residentMaxMB").asDouble());
    assertEquals(40, summary.path("diskWrittenMB").asDouble());
    assertEquals(10, summary.path("diskWriteMBPerSec").asDouble());
    assertEquals(
        List.of("cpuCores", "residentMaxMB", "diskWrittenMB", "diskWriteMBPerSec"),
        fieldNames(summary));

    JsonNode inPeriod = json.path("periods").path(0).path("brokers").path("kafka");
    assertEquals(1.25, inPeriod.path("cpuCores").asDouble());
    assertEquals(300, inPeriod.path("residentMB").asDouble());
    assertEquals(10, inPeriod.path("diskWriteMBPerSec").asDouble());
    assertEquals(List.of("cpuCores", "residentMB", "diskWriteMBPerSec"), fieldNames(inPeriod));
  }

  @Test
  void aBrokerWithoutAPeakTakesItsWholePhaseResident() {
    ResourceSample whole = sample(1, new ResourceSample.Broker(0.2, 64 * MB, 0));
    JsonNode summary =
        new ResourceReport("this JVM", 2, List.of(), whole, 0, 1, Map.of(), Map.of())
            .toJson()
            .path("summary")
            .path("brokers")
            .path("kafka");
    assertEquals(64, summary.path("residentMaxMB").asDouble());
    assertFalse(summary.path("diskWriteMBPerSec").isMissingNode());
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
