package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.resources.ResourceReport;
import io.plumb.resources.ResourceSample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The line that gives a send delay's maximum to the host when a producer waited as long. */
class SendDelayMaxLineTest {

  @Test
  void aMaximumAsLongAsAWaitForTheCoreIsTheHosts() {
    // A precise run of 2026-12-01: send delay max 1.41 ms beside a 1.39 ms wait.
    assertEquals(
        "Send delay   max 1.41 ms, and a producer thread waited 1.39 ms at once for its core: a"
            + " delay that long is the host's (another thread or the kernel had the core), not the"
            + " generator's",
        SendDelayMaxLine.describe(1.41, 1.39).orElseThrow());
    assertTrue(SendDelayMaxLine.describe(2.0, 3.0).isPresent(), "a longer wait covers it too");
  }

  @Test
  void aMaximumTheWaitDoesNotCoverGetsNoLine() {
    // 2.25 ms beside a 0.58 ms wait: something else made it.
    assertTrue(SendDelayMaxLine.describe(2.25, 0.58).isEmpty());
    assertTrue(SendDelayMaxLine.describe(2.0, 1.79).isEmpty(), "just under 90% of it");
    assertTrue(SendDelayMaxLine.describe(2.0, 1.8).isPresent(), "90% of it");
  }

  @Test
  void aMaximumUnderAMillisecondIsNotWorthALine() {
    assertTrue(SendDelayMaxLine.describe(0.63, 0.62).isEmpty());
  }

  @Test
  void theLongestWaitIsTheLongestOfAnyWorker() {
    ResourceReport coordinator = report(0);
    assertEquals(0, ResourceReport.NONE.producerLongestCoreWaitMillis());
    assertEquals(0.4, report(0.4).producerLongestCoreWaitMillis());
    assertEquals(
        2.5,
        coordinator
            .withRemoteWorkers(
                Map.of("http://a:8080", report(2.5), "http://b:8080", ResourceReport.NONE))
            .producerLongestCoreWaitMillis());
  }

  private static ResourceReport report(double longestCoreWaitMillis) {
    ResourceSample whole =
        new ResourceSample(
            10, 1, 0, 0, 0, 0, Map.of(), "JFR", 0, 0, 0, 0, 0, 0, longestCoreWaitMillis, Map.of());
    return new ResourceReport("worker", 2, List.of(whole), whole, 0, 0, Map.of(), Map.of());
  }
}
