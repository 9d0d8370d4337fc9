package io.plumb.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.RunReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit on the framework's loopback driver, which loses nothing unless told to. */
class SmokeRunTest {
  private static final Path LOOPBACK = Path.of("../benchmark-framework/loopback.yaml");

  @TempDir Path scratch;

  @Test
  void aRunThatDeliversEverythingHasNoProblems() {
    SmokeRun run = SmokeRun.standard();
    RunReport report = run.run(LOOPBACK, Map.of(), scratch);
    assertEquals(List.of(), run.deliveryProblems(report));
    assertTrue(report.measured().endToEndLatency().getTotalCount() > 1_000, report.toString());
  }

  @Test
  void droppedMessagesAreAProblem() {
    SmokeRun run = SmokeRun.standard();
    RunReport report =
        run.run(LOOPBACK, Map.of("dropAfterMessages", "100", "droppedMessages", "10"), scratch);
    List<String> problems = run.deliveryProblems(report);
    assertTrue(
        problems.stream().anyMatch(p -> p.startsWith("lost 10,") || p.startsWith("received ")),
        problems.toString());
  }
}
