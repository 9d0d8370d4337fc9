package io.plumb.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/benchmark compare} on recorded real results: an A/A comparison of loopback runs (see
 * {@code compare/aa-loopback/README.md}), which must find no difference anywhere.
 */
class CompareCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private static Path recorded(String side) throws URISyntaxException {
    return Path.of(CompareCommandTest.class.getResource("/compare/aa-loopback/" + side).toURI());
  }

  private static List<String> files(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(Path::toString).sorted().toList();
    }
  }

  @Test
  void theSameConfigurationTwiceIsNotDistinguishable() throws Exception {
    assertEquals(0, run("compare", recorded("a").toString(), "--", recorded("b").toString()));
    String console = out.toString(StandardCharsets.UTF_8);
    List<String> verdicts =
        console.lines().filter(line -> line.contains("B vs A") || line.contains(" B ")).toList();
    assertTrue(console.contains("A  short-loopback with Loopback (loopback.yaml): 5 run(s)"));
    // Every metric, throughput, latency and CPU alike: 16 lines, none calling noise a difference.
    List<String> metricLines =
        console
            .lines()
            .filter(line -> line.matches("^(publish|consume|end-to-end|worker|broker) .*"))
            .toList();
    assertEquals(16, metricLines.size(), console);
    for (String line : metricLines) {
      assertTrue(line.contains("not distinguishable ("), line);
    }
    assertTrue(!verdicts.isEmpty(), console);
  }

  @Test
  void fewerThanThreeRunsASideGiveNoVerdict() throws Exception {
    List<String> a = files(recorded("a"));
    List<String> b = files(recorded("b"));
    assertEquals(0, run("compare", a.get(0), a.get(1), "--", b.get(0), b.get(1), b.get(2)));
    String console = out.toString(StandardCharsets.UTF_8);
    assertTrue(
        console.contains(
            "no verdict possible: A has 2 complete run(s), B 3; at least 3 a side are needed"),
        console);
    assertTrue(!console.contains("distinguishable"), console);
  }

  @Test
  void aSideMixingConfigurationsOrAMissingSeparatorIsRefusedInOneLine() throws Exception {
    String a = recorded("a").toString();
    String b = recorded("b").toString();
    assertEquals(2, run("compare", a, b, "--", b));
    String error = err.toString(StandardCharsets.UTF_8);
    assertTrue(error.startsWith("error: side A: holds results of 2 configurations"), error);
    assertEquals(1, error.lines().count(), error);

    err.reset();
    assertEquals(2, run("compare", a, b, b));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).startsWith("error: compare: separate A's results"),
        err.toString(StandardCharsets.UTF_8));
  }
}
