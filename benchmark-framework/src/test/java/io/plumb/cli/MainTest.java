package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MainTest {
  @TempDir Path dir;

  private final CapturedConsole cli = new CapturedConsole();

  private String errors() {
    return cli.err();
  }

  private Path loopback() throws IOException {
    return LoopbackDriverFile.write(dir);
  }

  private Path workload(String extra) throws IOException {
    return WorkloadYaml.oneTopic()
        .partitions(2)
        .messageSize(64)
        .rate(1000)
        .with(extra)
        .writeTo(dir.resolve("w.yaml"));
  }

  @Test
  void helpTeachesWithExamples() {
    assertEquals(0, cli.run("--help"));
    String help = cli.out();
    assertTrue(help.contains("--drivers"));
    assertTrue(help.contains("Examples:"));
    assertTrue(help.contains("--driver-set"));
  }

  @Test
  void runsAndWritesTheResultWhereAsked() throws IOException {
    Path result = dir.resolve("out.json");
    assertEquals(
        0,
        cli.run("-d", loopback().toString(), "-o", result.toString(), workload("").toString()),
        errors());
    JsonNode json = new ObjectMapper().readTree(result.toFile());
    assertTrue(json.get("complete").asBoolean());
    assertTrue(cli.out().contains("Latency (ms)"));
  }

  @Test
  void badWorkloadExitsTwoWithOneLineAndNoStackTrace() throws IOException {
    assertRefusedOnLoopback(
        "w.yaml:10: unknown field 'testDurationMinute'", "testDurationMinute: 5\n");
  }

  @Test
  void missingFilesExitTwo() throws IOException {
    assertBadInput(
        "nope.yaml: file not found",
        "-d",
        loopback().toString(),
        dir.resolve("nope.yaml").toString());
    cli.clearErr();
    assertBadInput(
        "driver file not found",
        "-d",
        dir.resolve("nodriver.yaml").toString(),
        workload("").toString());
  }

  @Test
  void aClassThatIsNotADriverIsNeverLoaded() throws IOException {
    Path driver = dir.resolve("evil.yaml");
    Files.writeString(driver, "name: x\ndriverClass: java.lang.ProcessBuilder\n");
    assertBadInput(
        "does not implement io.plumb.driver.BenchmarkDriver",
        "-d",
        driver.toString(),
        workload("").toString());
  }

  @Test
  void misspelledDriverFieldIsRejectedByTheDriver() throws IOException {
    Path driver = dir.resolve("typo.yaml");
    Files.writeString(
        driver, "name: Loopback\ndriverClass: io.plumb.loopback.LoopbackDriver\nstallMilis: 5\n");
    assertBadInput(
        "typo.yaml:3: unknown field 'stallMilis' (did you mean 'stallMillis'?); allowed: driverClass, dropAfterMessages, droppedMessages, headerMetadata, heldPartition, hiddenMessages, hideAfterMessages, holdAfterMessages, keepMessages, name, stallAfterMessages, stallMillis",
        "-d",
        driver.toString(),
        workload("").toString());
  }

  @Test
  void anOutputThatCannotHoldResultsIsRefusedBeforeTheRun() throws IOException {
    Path file = Files.writeString(dir.resolve("notes.txt"), "not a directory\n");
    assertRefusedOnLoopback(
        "-o " + file + ": is a file, not a directory", "", "-o", file.toString());
    assertFalse(cli.out().contains("Latency (ms)"), cli.out());
    cli.clearErr();
    Path under = file.resolve("results");
    assertRefusedOnLoopback(
        "-o " + under + ": cannot create the directory", "", "-o", under.toString());
    cli.clearErr();
    Path json = Files.createDirectories(dir.resolve("taken.json"));
    assertRefusedOnLoopback(
        "-o " + json + ": is a directory, not a file", "", "-o", json.toString());
    cli.clearErr();
    Path jsonUnder = file.resolve("r.json");
    assertRefusedOnLoopback(
        "-o " + jsonUnder + ": cannot create the directory", "", "-o", jsonUnder.toString());
    assertFalse(cli.out().contains("Latency (ms)"), cli.out());
  }

  @Test
  void driverSetOfTheNameOrClassIsRefusedRatherThanIgnored() throws IOException {
    assertRefusedOnLoopback(
        "--driver-set name=Renamed: a driver's name and driverClass come from its file",
        "",
        "--driver-set",
        "name=Renamed");
    cli.clearErr();
    assertRefusedOnLoopback(
        "--driver-set driverClass=io.plumb.NoSuch: a driver's name and driverClass come from its file",
        "",
        "--driver-set",
        "driverClass=io.plumb.NoSuch");
  }

  @Test
  void aDriverSettingGivenTwiceIsRefusedRatherThanTheLastTaken() throws IOException {
    assertRefusedOnLoopback(
        "--driver-set key: given twice (key=a, then key=b); give each setting once",
        "",
        "--driver-set",
        "key=a",
        "--driver-set",
        "key=b");
    cli.clearErr();
    assertRefusedOnLoopback(
        "--driver-set key: expected KEY=VALUE, e.g. --driver-set bootstrap.servers=10.0.0.5:9092",
        "",
        "--driver-set",
        "key");
  }

  @ParameterizedTest(name = "name: {0}, driverClass: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          [a, b] | io.plumb.loopback.LoopbackDriver   | 1: field 'name': expected text, got a list
          ''     | io.plumb.loopback.LoopbackDriver   | 1: field 'name': expected text, got ''
          x      | [io.plumb.loopback.LoopbackDriver] | 2: field 'driverClass': expected a class name, got a list
          """)
  void aDriverNameOrClassThatIsNotTextIsRefused(String name, String driverClass, String refusal)
      throws IOException {
    Path file = dir.resolve("driver.yaml");
    Files.writeString(file, "name: " + name + "\ndriverClass: " + driverClass + "\n");
    assertBadInput("driver.yaml:" + refusal, "-d", file.toString(), workload("").toString());
  }

  @Test
  void unknownOptionExitsTwo() {
    assertEquals(2, cli.run("--frobnicate"));
    assertTrue(errors().startsWith("error: unknown option or argument: --frobnicate"), errors());
  }

  @Test
  void backlogFieldsThatCannotWorkTogetherExitTwo() throws IOException {
    Path workload = workload("consumerBacklogSizeGB: 1\n");
    Files.writeString(
        workload, Files.readString(workload).replace("producerRate: 1000", "producerRate: 0"));
    assertBadInput(
        "field 'consumerBacklogSizeGB': a backlog is built at a given producerRate",
        "-d",
        loopback().toString(),
        workload.toString());
    cli.clearErr();
    assertRefusedOnLoopback(
        "field 'backlogDrainRatio': expected a number at least 0 and at most 1, got 1.5",
        "consumerBacklogSizeGB: 1\nbacklogDrainRatio: 1.5\n");
    cli.clearErr();
    assertRefusedOnLoopback(
        "field 'consumerOnly': a consumer-only run drains a backlog", "consumerOnly: true\n");
  }

  @Test
  void optionsThatCannotWorkTogetherAreRefusedBeforeAnyWorkerIsCalled() throws IOException {
    // Nothing listens on these ports: a refusal must come before any attempt to reach them.
    String twoWorkers = "http://127.0.0.1:9,http://127.0.0.1:10";
    assertRefusedOnLoopback(
        "the loopback driver keeps messages inside each worker's JVM, so with --worker-roles split",
        "",
        "--workers",
        twoWorkers);
    cli.clearErr();
    assertRefusedOnLoopback(
        "--token-file: applies only with --workers or --workers-file",
        "",
        "--token-file",
        dir.resolve("token").toString());
    cli.clearErr();
    assertRefusedOnLoopback(
        "--worker-roles: applies only with --workers or --workers-file",
        "",
        "--worker-roles",
        "both");
    cli.clearErr();
    assertRefusedOnLoopback(
        "--probe-seconds: applies only to searches; no workload searches",
        "",
        "--probe-seconds",
        "5");
    cli.clearErr();
    assertRefusedOnLoopback(
        "--search-start: applies only to searches; --rates runs each rate once",
        "",
        "--rates",
        "1k,2k",
        "--search-start",
        "500");
  }

  /**
   * {@code options}, then the loopback driver and the usual workload with {@code workloadExtra},
   * are refused with {@code expected}.
   */
  private void assertRefusedOnLoopback(String expected, String workloadExtra, String... options)
      throws IOException {
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("-d", loopback().toString(), workload(workloadExtra).toString()));
    assertBadInput(expected, args.toArray(new String[0]));
  }

  private void assertBadInput(String expected, String... args) {
    assertEquals(2, cli.run(args), errors());
    String message = errors();
    assertTrue(message.contains(expected), message);
    assertEquals(1, message.lines().count(), message);
    assertFalse(message.contains("\tat "), message);
  }
}
