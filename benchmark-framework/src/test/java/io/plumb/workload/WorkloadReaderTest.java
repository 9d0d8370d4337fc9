package io.plumb.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import io.plumb.message.HeaderPlacement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadReaderTest {
  private static final Path VALID = Path.of("src/test/resources/workloads/valid.yaml");

  @TempDir Path dir;

  @Test
  void readsAnOmbWorkloadUnchanged() {
    Workload workload = WorkloadReader.read(VALID);
    assertEquals("valid", workload.name());
    assertEquals(16, workload.partitionsPerTopic());
    assertEquals(KeyDistributorType.KEY_ROUND_ROBIN, workload.keyDistributor());
    assertEquals(50_000, workload.producerRate());
    assertEquals(Duration.ofMinutes(15), workload.testDuration());
    assertEquals(Duration.ofMinutes(1), workload.warmupDuration());
    assertTrue(workload.payloadFile().isPresent());
  }

  @Test
  void acceptsDurationsInSecondsAndFractionsOfAMinute() throws IOException {
    Workload seconds =
        WorkloadReader.read(variant("testDurationMinutes: 15", "testDurationSeconds: 20"));
    assertEquals(Duration.ofSeconds(20), seconds.testDuration());
    Workload fraction =
        WorkloadReader.read(variant("testDurationMinutes: 15", "testDurationMinutes: 0.5"));
    assertEquals(Duration.ofSeconds(30), fraction.testDuration());
  }

  @Test
  void misspelledFieldIsNamedWithItsLineAndTheLikelyIntent() throws IOException {
    Path file = variant("testDurationMinutes: 15", "testDurationMinute: 15");
    String message = failure(file);
    assertTrue(
        message.startsWith(
            file
                + ":12: unknown field 'testDurationMinute' (did you mean 'testDurationMinutes'?);"
                + " allowed: "),
        message);
    assertTrue(message.contains(", testDurationMinutes, "), message);
  }

  @Test
  void wrongTypeIsNamed() throws IOException {
    Path file = variant("producerRate: 50000", "producerRate: fast");
    assertEquals(file + ":10: field 'producerRate': expected a number, got 'fast'", failure(file));
  }

  @Test
  void negativeValueIsNamedWithTheAllowedRange() throws IOException {
    Path file = variant("partitionsPerTopic: 16", "partitionsPerTopic: -3");
    assertEquals(
        file
            + ":3: field 'partitionsPerTopic': expected a whole number of at least 1 (and at most 2147483647), got -3",
        failure(file));
  }

  @Test
  void fractionalCountIsRejected() throws IOException {
    Path file = variant("topics: 1", "topics: 1.5");
    assertTrue(failure(file).contains("field 'topics': expected a whole number"));
  }

  @Test
  void impossibleCombinationIsNamed() throws IOException {
    Path file = variant("consumerPerSubscription: 1", "consumerPerSubscription: 0");
    assertEquals(
        file
            + ":8: field 'consumerPerSubscription': must be at least 1 when subscriptionsPerTopic is 1",
        failure(file));
  }

  @Test
  void unknownKeyDistributorListsTheAllowedOnes() throws IOException {
    Path file = variant("keyDistributor: KEY_ROUND_ROBIN", "keyDistributor: ROUND_ROBIN");
    assertEquals(
        file
            + ":4: field 'keyDistributor': expected one of NO_KEY, KEY_ROUND_ROBIN, RANDOM_NANO, got 'ROUND_ROBIN'",
        failure(file));
  }

  @Test
  void payloadFileOfTheWrongSizeIsNamed() throws IOException {
    Files.copy(
        Path.of("src/test/resources/workloads/payload-1000b.data"),
        dir.resolve("payload-1000b.data"));
    Path file = variant("payloadFile: payload-1Kb.data", "payloadFile: payload-1000b.data");
    String message = failure(file);
    assertTrue(message.startsWith(file + ":6: field 'payloadFile': "), message);
    assertTrue(
        message.endsWith("holds 1000 bytes but messageSize is 1024; they must be equal"), message);
  }

  @Test
  void missingPayloadFileIsNamed() throws IOException {
    Path file = variant("payloadFile: payload-1Kb.data", "payloadFile: nowhere.data");
    assertTrue(
        failure(file).startsWith(file + ":6: field 'payloadFile': file 'nowhere.data' not found"));
  }

  @Test
  void missingWorkloadFileAndMissingFieldsAreNamed() throws IOException {
    assertEquals(
        dir.resolve("absent.yaml") + ": file not found", failure(dir.resolve("absent.yaml")));
    Path file = variant("testDurationMinutes: 15", "");
    assertTrue(
        failure(file)
            .startsWith(file + ": missing field 'testDurationMinutes' (or 'testDurationSeconds')"));
  }

  @Test
  void bothDurationUnitsAtOnceIsAnError() throws IOException {
    Path file =
        variant("testDurationMinutes: 15", "testDurationMinutes: 15\ntestDurationSeconds: 10");
    assertTrue(
        failure(file).contains("give either testDurationMinutes or testDurationSeconds, not both"));
  }

  @Test
  void aNumberThatIsNotFiniteIsNamedWithItsField() throws IOException {
    for (String value : List.of(".nan", ".inf", "-.Inf")) {
      Path file = variant("producerRate: 50000", "producerRate: " + value);
      assertEquals(
          file + ":10: field 'producerRate': expected a finite number, got " + value,
          failure(file));
    }
  }

  @Test
  void aDurationShorterThanThePeriodFloorIsRefusedWithTheLeastAllowed() throws IOException {
    Path test = variant("testDurationMinutes: 15", "testDurationSeconds: 1e-10");
    assertEquals(
        test
            + ":12: field 'testDurationSeconds': expected at least 0.1 s (the shortest period"
            + " between rate samples), got 1.0E-10",
        failure(test));
    Path minutes = variant("testDurationMinutes: 15", "testDurationMinutes: 0.001");
    assertTrue(
        failure(minutes)
            .endsWith(
                "field 'testDurationMinutes': expected at least 0.1 s (the shortest period between"
                    + " rate samples), got 0.001 minutes"),
        failure(minutes));
    Path warmup = variant("warmupDurationMinutes: 1", "warmupDurationSeconds: 0.05");
    assertTrue(
        failure(warmup)
            .endsWith(
                "field 'warmupDurationSeconds': expected 0 (no warm-up) or at least 0.1 s (the"
                    + " shortest period between rate samples), got 0.05"),
        failure(warmup));
  }

  @Test
  void theShortestDurationsAllowedAreReadAsGiven() throws IOException {
    Workload shortest =
        WorkloadReader.read(
            variant(
                "testDurationMinutes: 15\nwarmupDurationMinutes: 1",
                "testDurationSeconds: 0.1\nwarmupDurationSeconds: 0"));
    assertEquals(Duration.ofMillis(100), shortest.testDuration());
    assertEquals(Duration.ZERO, shortest.warmupDuration());
  }

  @Test
  void messagesDownToOneByteAreReadWithTheHeaderLeftToTheirSize() throws IOException {
    Workload one =
        WorkloadReader.read(
            variant("messageSize: 1024\npayloadFile: payload-1Kb.data", "messageSize: 1"));
    assertEquals(1, one.messageSize());
    assertEquals(Optional.empty(), one.headerIn());
    assertEquals(HeaderPlacement.METADATA, HeaderPlacement.forSize(one.headerIn(), 1));
    assertEquals(HeaderPlacement.PAYLOAD, HeaderPlacement.forSize(Optional.empty(), 26));
    Path zero = variant("messageSize: 1024\npayloadFile: payload-1Kb.data", "messageSize: 0");
    assertTrue(failure(zero).contains("field 'messageSize': expected a whole number from 1 to"));
  }

  @Test
  void headerInIsPayloadOrMetadataAndPayloadNeedsRoomForTheHeader() throws IOException {
    Workload metadata =
        WorkloadReader.read(
            variant("producerRate: 50000", "producerRate: 50000\nheaderIn: metadata"));
    assertEquals(Optional.of(HeaderPlacement.METADATA), metadata.headerIn());
    assertEquals(
        HeaderPlacement.METADATA,
        HeaderPlacement.forSize(metadata.headerIn(), metadata.messageSize()));

    Path small =
        variant(
            "messageSize: 1024\npayloadFile: payload-1Kb.data",
            "messageSize: 12\nheaderIn: payload");
    assertEquals(
        small
            + ":6: field 'headerIn': payload: a messageSize of 12 bytes cannot hold Plumb's"
            + " 26-byte header; use metadata (or leave headerIn out), or a messageSize of 26 or"
            + " more",
        failure(small));

    Path wrong = variant("producerRate: 50000", "producerRate: 50000\nheaderIn: properties");
    assertTrue(
        failure(wrong)
            .endsWith(
                "field 'headerIn': expected payload (the header's 26 bytes start each message)"
                    + " or metadata (the broker's per-message metadata carries them), got"
                    + " 'properties'"),
        failure(wrong));
  }

  @Test
  void brokenYamlIsReportedWithItsLine() throws IOException {
    Path file = dir.resolve("broken.yaml");
    Files.writeString(file, "topics: 1\npartitionsPerTopic: [1,\n");
    assertTrue(failure(file).startsWith(file + ":"));
  }

  private String failure(Path file) {
    BadInputException error =
        assertThrows(BadInputException.class, () -> WorkloadReader.read(file));
    assertEquals(1, error.getMessage().lines().count(), "one line: " + error.getMessage());
    return error.getMessage();
  }

  private Path variant(String line, String replacement) throws IOException {
    Path payload = dir.resolve("payload-1Kb.data");
    if (!Files.exists(payload)) {
      Files.copy(Path.of("src/test/resources/workloads/payload-1Kb.data"), payload);
    }
    String text = Files.readString(VALID);
    if (!text.contains(line)) {
      throw new IllegalArgumentException(line);
    }
    Path file = dir.resolve("workload-" + Math.abs((line + replacement).hashCode()) + ".yaml");
    Files.writeString(file, text.replace(line, replacement));
    return file;
  }
}
