package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.report.LoopbackResults;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/benchmark report}: what it writes, what it teaches, and how it refuses bad input. */
class ReportCommandTest {
  @TempDir Path dir;

  private final CapturedConsole cli = new CapturedConsole();

  private void assertBadInput(String expected, String... args) {
    assertEquals(2, cli.run(args));
    String errors = cli.err();
    assertTrue(errors.contains(expected), errors);
    // One line of error; a mistyped option adds bin/benchmark's usual hint on where help is.
    assertEquals(
        1, errors.lines().filter(l -> !l.startsWith("Try 'bin/benchmark")).count(), errors);
    assertFalse(errors.contains("\tat "), "no stack trace");
    cli.clearErr();
  }

  @Test
  void helpTeachesWithAnExample() {
    assertEquals(0, cli.run("report", "--help"));
    String help = cli.out();
    assertTrue(help.contains("bin/benchmark report results/*.json -o report.html"), help);
    assertTrue(help.contains(".hgrm"), help);
  }

  @Test
  void writesTheReportAndSaysWhere() throws IOException {
    Path result = LoopbackResults.write(dir, "one", 1_000, 64);
    Path html = dir.resolve("out").resolve("report.html");
    assertEquals(0, cli.run("report", result.toString(), "-o", html.toString()), cli.err());
    assertTrue(Files.size(html) > 100_000, "Chart.js is inside");
    assertTrue(cli.out().contains("Report       " + html));
    assertTrue(Files.exists(dir.resolve("out").resolve("one.publish.hgrm")));
  }

  @Test
  void badInputIsOneLineAndExitTwo() throws IOException {
    assertBadInput("no result files given; e.g. bin/benchmark report results/*.json", "report");
    assertBadInput("nope.json: file not found", "report", dir.resolve("nope.json").toString());
    assertBadInput(": is a directory", "report", dir.toString());
    assertBadInput("unknown option or argument: --bogus", "report", "--bogus", "x.json");

    Path notJson = dir.resolve("notes.json");
    Files.writeString(notJson, "this is not json");
    assertBadInput("notes.json: not JSON", "report", notJson.toString());

    // OpenMessaging Benchmark's own result: JSON, but none of Plumb's fields.
    Path omb = dir.resolve("omb.json");
    Files.writeString(
        omb, "{\"workload\":\"w\",\"driver\":\"Kafka\",\"publishRate\":[1.0],\"backlog\":[0]}");
    assertBadInput(
        "omb.json: not a Plumb result (no field 'throughput')", "report", omb.toString());

    Path good = LoopbackResults.write(dir, "good", 1_000, 64);
    assertBadInput(
        "-o " + dir + ": is a directory; give the report's file name",
        "report",
        good.toString(),
        "-o",
        dir.toString());

    Path notADirectory = Files.writeString(dir.resolve("notes.txt"), "a file\n");
    Path under = notADirectory.resolve("report.html");
    assertBadInput(
        "-o " + under + ": cannot create the directory " + notADirectory,
        "report",
        good.toString(),
        "-o",
        under.toString());

    Path broken = dir.resolve("broken.json");
    Files.writeString(
        broken,
        Files.readString(good)
            .replaceFirst(
                "\"histogram\" : \"[^\"]*\"", "\"histogram\" : \"bm90IGEgaGlzdG9ncmFt\""));
    assertBadInput(
        "broken.json: field 'latency.publish.histogram': not a base64 HdrHistogram encoding",
        "report",
        broken.toString());
  }

  @Test
  void theEndOfARunSaysWhereItsResultWentAndHowToReportIt() throws IOException {
    Path driver = LoopbackDriverFile.write(dir);
    Path workload =
        WorkloadYaml.oneTopic().messageSize(64).rate(1000).writeTo(dir.resolve("w.yaml"));
    Path results = dir.resolve("results");
    assertEquals(
        0,
        cli.run("-d", driver + "," + driver, "-o", results.toString(), workload.toString()),
        cli.err());
    String printed = cli.out();
    try (var files = Files.list(results)) {
      var written = files.sorted().toList();
      assertEquals(2, written.size());
      for (Path result : written) {
        assertTrue(printed.contains("Result       " + result), printed);
      }
    }
    assertTrue(printed.contains("== 2 results"), printed);
    assertTrue(
        printed.contains("Report       bin/benchmark report " + results.resolve("")), printed);
    assertTrue(printed.contains(" -o " + results.resolve("report.html")), printed);
  }
}
