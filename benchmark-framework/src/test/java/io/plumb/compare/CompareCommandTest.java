package io.plumb.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.cli.CapturedConsole;
import io.plumb.repeat.SyntheticResults;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code bin/benchmark compare} on results whose figures the test sets: known per-round ratios give
 * known Hodges-Lehmann estimates and signed-rank bounds, and each of the three verdicts; and on the
 * recorded A/A loopback runs (see {@code compare/aa-loopback/README.md}), which must show no
 * difference.
 */
class CompareCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final CapturedConsole cli = new CapturedConsole();

  private String console() {
    return cli.out();
  }

  private String line(String start) {
    return console().lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow();
  }

  /** The directories of A's results and of B's. */
  private record Sides(Path a, Path b) {}

  /** Empty directories a and b for the test's results. */
  private Sides emptySides() throws IOException {
    return new Sides(
        Files.createDirectories(dir.resolve("a")), Files.createDirectories(dir.resolve("b")));
  }

  /**
   * Five rounds: A at 1,000 msg/s; B at 1,000 x e^x with x the round's log ratio, in this order.
   */
  private Sides sides(double[] logRatios, IntFunction<ObjectNode> tweakA) throws IOException {
    Sides sides = emptySides();
    for (int round = 0; round < logRatios.length; round++) {
      ObjectNode runA = SyntheticResults.run(2 * round, 1000, 1, 50_000);
      ObjectNode runB =
          SyntheticResults.run(2 * round + 1, 1000 * Math.exp(logRatios[round]), 1, 50_000);
      if (tweakA != null && tweakA.apply(round) != null) {
        runA.setAll(tweakA.apply(round));
      }
      JSON.writeValue(sides.a().resolve("run" + (round + 1) + ".json").toFile(), runA);
      JSON.writeValue(sides.b().resolve("run" + (round + 1) + ".json").toFile(), runB);
    }
    return sides;
  }

  /**
   * {@code compare --primary throughput}, with {@code options}, of the two sides: the command most
   * tests here run, which must exit 0.
   */
  private void compareThroughput(Sides sides, String... options) {
    List<String> args = new ArrayList<>(List.of("compare", "--primary", "throughput"));
    args.addAll(List.of(options));
    args.addAll(List.of(sides.a().toString(), "--", sides.b().toString()));
    assertEquals(0, cli.run(args.toArray(String[]::new)), cli.err());
  }

  @Test
  void knownRatiosGiveKnownBoundsAndADifferenceBeyondTheMargin() throws IOException {
    // Log ratios 0.08 to 0.12, shuffled: symmetric around 0.10, so the Hodges-Lehmann estimate is
    // e^0.10 = 1.105; five rounds give [smallest, largest] = [e^0.08, e^0.12] at 93.75%.
    Sides sides = sides(new double[] {0.10, 0.12, 0.08, 0.11, 0.09}, null);
    compareThroughput(sides);
    assertEquals(
        "VERDICT      publish rate: B faster: 1.105x A, beyond ±5%; B/A 1.105x, 93.8% CI 1.083x"
            + " to 1.127x (Hodges-Lehmann over 5 paired rounds; per round 1.105x 1.127x 1.083x"
            + " 1.116x 1.094x)",
        line("VERDICT"), console());
    assertTrue(line("Primary").startsWith("Primary      publish rate (--primary throughput)"));
    assertTrue(line("publish rate").endsWith("PRIMARY B faster: 1.105x A, beyond ±5%"), console());
    // Latencies equal in every round: within the margin, from the floor of their resolution.
    assertTrue(line("end-to-end p50").endsWith("93.8% CI 0.998x to 1.002x  same within ±5%"));
    // 50,000 samples a run: p99.99 is not reported.
    assertTrue(
        line("end-to-end p99.99")
            .endsWith(
                "not reported: p99.99 needs 100,000 samples a run (10 beyond it), the fewest"
                    + " here 50,000"),
        console());
  }

  @Test
  void aWiderMarginOrASmallerChangeGiveTheOtherTwoVerdicts() throws IOException {
    Sides sides = sides(new double[] {0.10, 0.12, 0.08, 0.11, 0.09}, null);
    compareThroughput(sides, "--margin", "10%");
    assertTrue(
        line("VERDICT")
            .startsWith(
                "VERDICT      publish rate: not distinguishable (interval reaches inside and"
                    + " beyond ±10%)"),
        console());
  }

  @Test
  void smallChangesAreTheSameWithinTheMargin() throws IOException {
    Sides sides = sides(new double[] {0.01, -0.02, 0.0, 0.02, -0.01}, null);
    compareThroughput(sides);
    assertTrue(
        line("VERDICT")
            .startsWith(
                "VERDICT      publish rate: same within ±5%; B/A 1.000x, 93.8% CI 0.980x to 1.020x"),
        console());
  }

  @Test
  void theMarginIsPrintedAsGivenNotRoundedToOneDecimal() throws IOException {
    // B is 1.28% faster in every round: beyond a 1.25% margin, which printed as ±1.3% made the
    // verdict read "1.013x A, beyond ±1.3%".
    Sides sides = sides(new double[] {0.0127, 0.0128, 0.0129, 0.01275, 0.01285}, null);
    compareThroughput(sides, "--margin", "1.25%");
    assertTrue(line("Primary").endsWith("margin ±1.25%"), console());
    assertTrue(
        line("VERDICT").startsWith("VERDICT      publish rate: B faster: 1.013x A, beyond ±1.25%;"),
        console());
  }

  @Test
  void brokersOnTheGeneratorsHostGiveTheCaveatAsRepeatDoes() throws IOException {
    // The template's runs sampled a local broker (rabbitmq/1): --repeat prints this caveat
    // for such runs; compare of their files said nothing.
    Sides sides = sides(new double[] {0.10, 0.12, 0.08, 0.11, 0.09}, null);
    compareThroughput(sides);
    assertTrue(
        line("Caveat")
            .startsWith(
                "Caveat       the brokers ran on the load generator's host in 10 of 10 runs"
                    + " (rabbitmq/1, 2 cores)"),
        console());
  }

  @Test
  void aLossyRunIsLeftOutWithItsPartnerUnlessIncludeAll() throws IOException {
    ObjectNode lossy = JSON.createObjectNode();
    lossy.putObject("counters").put("lost", 3);
    Sides sides =
        sides(new double[] {0.10, 0.12, 0.08, 0.11, 0.09}, round -> round == 1 ? lossy : null);
    compareThroughput(sides);
    assertTrue(
        console()
            .contains(
                "left out: A round 2, " + sides.a().resolve("run2.json") + ": lost 3 message(s)\n"),
        console());
    assertTrue(console().contains("left out: B round 2, " + sides.b().resolve("run2.json")));
    assertEquals("Rounds       4 paired", line("Rounds"));
    assertEquals(
        "VERDICT      publish rate: no verdict: 4 paired round(s) reach at best a 87.5% interval;"
            + " 5 or more are needed",
        line("VERDICT"));
    cli.clearOut();
    compareThroughput(sides, "--include-all");
    assertEquals("Rounds       5 paired (--include-all)", line("Rounds"));
    assertTrue(line("VERDICT").contains("B faster: 1.105x A"), console());
  }

  @Test
  void runsArePairedWithTheRunBesideThemNotByTheirRankOnTheirSide() throws IOException {
    // Two repeats into one directory, the first interrupted after A's run of round 3: B equals A
    // in every round, but the host ran at half speed during the second repeat. Pairing the k-th
    // run of each side put A's unpartnered run (1,000 msg/s) beside B's first of the second
    // repeat (500 msg/s): a ratio of 0.5 that no round had.
    Sides sides = emptySides();
    Path a = sides.a();
    Path b = sides.b();
    String first = "ABBAA"; // minutes 0 to 4: rounds 1, 2 and A of round 3
    String second = "ABBAABBAAB"; // minutes 100 to 109: rounds 1 to 5 again
    int[] written = new int[2];
    for (String order : List.of(first, second)) {
      int minute = order == first ? 0 : 100;
      double rate = order == first ? 1000 : 500;
      for (char side : order.toCharArray()) {
        boolean isA = side == 'A';
        Path file = (isA ? a : b).resolve("run" + (++written[isA ? 0 : 1]) + ".json");
        JSON.writeValue(file.toFile(), SyntheticResults.run(minute++, rate, 1, 50_000));
      }
    }
    assertTheSameOverPairedRounds(
        sides, 7, "left out: A, " + a.resolve("run3.json") + ": no run of B beside it");
  }

  @Test
  void aRunOfAnotherRoundThatStartedBesideItIsNotItsPartner() throws IOException {
    // The first repeat stopped after B's run of round 2; the second began with A's run of round
    // 1, right after it. --repeat's file names carry the round: run2 and run1 are not one round.
    Sides sides = emptySides();
    Path a = sides.a();
    Path b = sides.b();
    String first = "ABB"; // minutes 0 to 2
    String second = "ABBAABBAAB"; // minutes 3 to 12
    int minute = 0;
    for (String order : List.of(first, second)) {
      double rate = order == first ? 1000 : 500;
      int[] round = {0, 0};
      for (char side : order.toCharArray()) {
        boolean isA = side == 'A';
        String name = "w-d-run" + (++round[isA ? 0 : 1]) + "-" + minute + ".json";
        JSON.writeValue(
            (isA ? a : b).resolve(name).toFile(), SyntheticResults.run(minute++, rate, 1, 50_000));
      }
    }
    assertTheSameOverPairedRounds(
        sides, 6, "left out: B, " + b.resolve("w-d-run2-2.json") + ": no run of A");
  }

  /**
   * Compared, sides whose runs are equal round by round pair {@code rounds} rounds, print {@code
   * leftOut} (a left-out line, or its start) and find B the same as A.
   */
  private void assertTheSameOverPairedRounds(Sides sides, int rounds, String leftOut) {
    compareThroughput(sides);
    assertTrue(console().contains(leftOut), console());
    assertEquals("Rounds       " + rounds + " paired", line("Rounds"));
    assertTrue(
        line("VERDICT").startsWith("VERDICT      publish rate: same within ±5%; B/A 1.000x"),
        console());
  }

  private static java.io.File firstResult(Path directory) throws IOException {
    try (var files = Files.list(directory)) {
      return files.sorted().findFirst().orElseThrow().toFile();
    }
  }

  private static Path recorded(String side) throws URISyntaxException {
    return Path.of(CompareCommandTest.class.getResource("/compare/aa-loopback/" + side).toURI());
  }

  @Test
  void theRecordedAaRunsShowNoDifference() throws Exception {
    // Every recorded run was flagged generator-bound on its loaded host: left out by default.
    assertEquals(0, cli.run("compare", recorded("a").toString(), "--", recorded("b").toString()));
    assertEquals("Rounds       0 paired", line("Rounds"));
    assertEquals(10, console().lines().filter(l -> l.contains("generator-bound (")).count());
    cli.clearOut();
    assertEquals(
        0,
        cli.run(
            "compare", "--include-all", recorded("a").toString(), "--", recorded("b").toString()));
    List<String> metricLines =
        console()
            .lines()
            .filter(line -> line.matches("^(publish|consume|end-to-end|worker|broker) .*"))
            .toList();
    assertEquals(16, metricLines.size(), console());
    for (String metric : metricLines) {
      assertTrue(
          metric.contains("not distinguishable")
              || metric.contains("same within ±5%")
              || metric.contains("not reported: p99.99"),
          metric);
    }
    assertTrue(line("Primary").startsWith("Primary      end-to-end p99 (default: every run kept"));
  }

  @Test
  void badInputIsRefusedInOneLine() throws Exception {
    String a = recorded("a").toString();
    String b = recorded("b").toString();
    ObjectNode other =
        (ObjectNode) JSON.readTree(Files.list(recorded("b")).sorted().findFirst().get().toFile());
    other.put("driver", "Other");
    Path odd = dir.resolve("odd.json");
    JSON.writeValue(odd.toFile(), other);
    assertEquals(2, cli.run("compare", a, odd.toString(), "--", b));
    String error = cli.err();
    assertTrue(error.startsWith("error: side A: holds results of 2 configurations"), error);
    assertEquals(1, error.lines().count(), error);

    cli.clearErr();
    // The same names with other settings: another --driver-set value, and the same file read
    // from another directory (which alone is no difference).
    ObjectNode overridden = (ObjectNode) JSON.readTree(firstResult(recorded("a")));
    ObjectNode driverConfig = (ObjectNode) overridden.path("driverConfig");
    driverConfig.put("file", "/elsewhere/loopback.yaml");
    ((ObjectNode) driverConfig.path("overrides")).put("keepMessages", "true");
    Path setOther = dir.resolve("set-other.json");
    JSON.writeValue(setOther.toFile(), overridden);
    assertEquals(2, cli.run("compare", a, setOther.toString(), "--", b));
    assertEquals(
        "error: side A: holds results of short-loopback with Loopback (loopback.yaml) with"
            + " different settings (driver.overrides.keepMessages: — / true); give the results of"
            + " one workload and driver file a side",
        cli.err().strip());
    ((ObjectNode) driverConfig.path("overrides")).remove("keepMessages");
    JSON.writeValue(setOther.toFile(), overridden);
    cli.clearErr();
    cli.clearOut();
    assertEquals(0, cli.run("compare", a, setOther.toString(), "--", b), cli.err());

    cli.clearErr();
    assertEquals(2, cli.run("compare", a, b, b));
    assertTrue(cli.err().startsWith("error: compare: separate A's results"));
    cli.clearErr();
    assertEquals(2, cli.run("compare", "--primary", "p42", a, "--", b));
    assertTrue(cli.err().startsWith("error: --primary: expected"));
  }

  @Test
  void anUnknownOptionIsRefusedAsUnknownWhereverItStands() throws Exception {
    String a = recorded("a").toString();
    String b = recorded("b").toString();
    for (List<String> args :
        List.of(
            List.of("compare", "--bogus", a, "--", b),
            List.of("compare", a, "--", b, "--bogus"),
            List.of("compare", "-x", a, "--", b))) {
      String option =
          args.stream().filter(arg -> arg.startsWith("-") && !arg.equals("--")).findFirst().get();
      assertEquals(2, cli.run(args.toArray(new String[0])), cli.err());
      assertEquals(
          "error: unknown option or argument: "
              + option
              + "\nTry 'bin/benchmark compare --help' for the options and examples.",
          cli.err().strip());
      cli.clearErr();
    }
  }

  @ParameterizedTest(name = "--margin {0}")
  @MethodSource
  void aMarginThatIsNotAPercentageIsRefusedInOneLine(String margin, String error) throws Exception {
    String a = recorded("a").toString();
    String b = recorded("b").toString();
    assertEquals(2, cli.run("compare", "--margin", margin, a, "--", b));
    assertEquals(error, cli.err().strip());
  }

  static Stream<Arguments> aMarginThatIsNotAPercentageIsRefusedInOneLine() {
    return Stream.of(
        Arguments.of(
            "five%",
            "error: --margin: expected a percentage above 0 and at most 100, e.g. 5% or 2.5%, got"
                + " 'five%'"),
        Arguments.of(
            "0.05",
            "error: --margin: give the percentage with its % sign, e.g. 5% or 2.5% (is '0.05' a"
                + " share or a percentage?)"));
  }
}
