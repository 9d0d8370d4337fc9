package io.plumb.cli;

import static io.plumb.cli.OneLineRefusal.assertRefusedInOneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("host-timing")
class PacingOptionTest {
  private static final String LOOPBACK = "loopback.yaml";

  @TempDir Path dir;

  @Test
  void anUnknownModeIsOneLineNamingTheChoices() {
    CommandLineRun run =
        CommandLineRun.run(
            "--pacing", "fast", "-d", LOOPBACK, CommandLineRun.writeTinyWorkload(dir).toString());
    assertRefusedInOneLine(run, "error: --pacing: expected efficient or precise, got 'fast'");
  }

  @Test
  void theResultRecordsThePacingItRanWith() throws Exception {
    for (String pacing : List.of("precise", "efficient")) {
      Path results = Files.createDirectories(dir.resolve(pacing));
      CommandLineRun run =
          CommandLineRun.run(
              "--pacing",
              pacing,
              "-d",
              LOOPBACK,
              "-o",
              results.toString(),
              CommandLineRun.writeTinyWorkload(dir).toString());
      assertEquals(0, run.status(), run.out() + run.err());
      try (Stream<Path> files = Files.list(results)) {
        Path result = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
        JsonNode json = new ObjectMapper().readTree(result.toFile());
        assertEquals(pacing, json.get("environment").get("pacing").asText());
        assertEquals(0, json.get("counters").get("lost").asLong(), json.toString());
      }
    }
  }
}
