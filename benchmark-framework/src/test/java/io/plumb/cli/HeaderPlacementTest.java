package io.plumb.cli;

import static io.plumb.cli.OneLineRefusal.assertRefusedInOneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.worker.LoopbackDriverFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the header travels, through the command line on the loopback driver: messages smaller than
 * the header carry it in the driver's metadata and arrive whole; a driver without metadata refuses
 * them in one line before any load; and the result always says where the header went.
 */
class HeaderPlacementTest {
  @TempDir Path dir;

  @Test
  void oneByteMessagesCarryTheHeaderInMetadataAndArriveOnceEach() throws Exception {
    CommandLineRun run = run(workload(1, ""), driver(""));

    assertEquals(0, run.status(), run.out() + run.err());
    assertTrue(
        run.out()
            .contains(
                "Header       in a field beside the message body, +26 bytes per message on the"
                    + " wire beside each 1-byte payload"),
        run.out());
    JsonNode json = result();
    assertEquals("metadata", json.get("brokerFacts").get("header").asText());
    JsonNode counters = json.get("counters");
    assertTrue(counters.get("sent").asLong() > 100, counters.toString());
    assertEquals(counters.get("sent").asLong(), counters.get("received").asLong());
    assertEquals(0, counters.get("lost").asLong());
    assertEquals(0, counters.get("foreign").asLong());
    assertEquals(0, counters.get("negativeEndToEnd").asLong());
    assertTrue(json.get("aggregatedEndToEndLatencyMax").asDouble() > 0, json.toString());
  }

  @Test
  void messagesThatHoldTheHeaderKeepItInThePayloadAndSaySo() throws Exception {
    CommandLineRun run = run(workload(100, ""), driver(""));

    assertEquals(0, run.status(), run.out() + run.err());
    assertFalse(run.out().contains("Header "), run.out());
    JsonNode facts = result().get("brokerFacts");
    assertEquals("payload", facts.get("header").asText());
    assertEquals(
        "the first 26 bytes of each 100-byte payload", facts.get("header.detail").asText());
  }

  @Test
  void aWorkloadMayPutTheHeaderInMetadataWhateverTheSize() throws Exception {
    CommandLineRun run = run(workload(100, "headerIn: metadata\n"), driver(""));

    assertEquals(0, run.status(), run.out() + run.err());
    JsonNode json = result();
    assertEquals("metadata", json.get("brokerFacts").get("header").asText());
    assertEquals(0, json.get("counters").get("lost").asLong());
  }

  @Test
  void aDriverWithoutMetadataRefusesSmallMessagesInOneLineBeforeAnyLoad() throws Exception {
    Path workload = workload(12, "");
    CommandLineRun run =
        assertRefusedByADriverWithoutMetadata(
            workload,
            ": field 'messageSize': 12 bytes cannot hold Plumb's 26-byte header, and Loopback (",
            ") carries it in no per-message metadata; use a messageSize of 26 or more");
    assertFalse(run.out().contains("creating"), run.out());
  }

  @Test
  void askingForMetadataOnADriverWithoutItIsRefusedNamingTheField() throws Exception {
    assertRefusedByADriverWithoutMetadata(
        workload(100, "headerIn: metadata\n"),
        ": field 'headerIn': metadata, but Loopback (",
        ") carries Plumb's header in no per-message metadata; use payload (or leave headerIn out)");
  }

  /**
   * A driver without metadata refuses {@code workload} with status 2 and one line: the workload,
   * {@code beforeDriver}, the driver file, {@code afterDriver}.
   */
  private CommandLineRun assertRefusedByADriverWithoutMetadata(
      Path workload, String beforeDriver, String afterDriver) throws Exception {
    CommandLineRun run = run(workload, driver("headerMetadata: false\n"));
    assertRefusedInOneLine(
        run, "error: " + workload + beforeDriver + dir.resolve("loopback.yaml") + afterDriver);
    return run;
  }

  private CommandLineRun run(Path workload, Path driver) {
    return CommandLineRun.run(
        "-d", driver.toString(), "-o", dir.resolve("out").toString(), workload.toString());
  }

  private Path workload(int messageSize, String extra) throws Exception {
    return Files.writeString(
        dir.resolve("tiny.yaml"),
        Files.readString(CommandLineRun.writeTinyWorkload(dir))
                .replace("messageSize: 100", "messageSize: " + messageSize)
            + extra);
  }

  private Path driver(String extra) throws Exception {
    return LoopbackDriverFile.write(dir, extra);
  }

  private JsonNode result() throws Exception {
    try (Stream<Path> files = Files.list(dir.resolve("out"))) {
      Path result = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
      return new ObjectMapper().readTree(result.toFile());
    }
  }
}
