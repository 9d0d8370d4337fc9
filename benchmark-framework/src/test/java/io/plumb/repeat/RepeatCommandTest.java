package io.plumb.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.cli.CapturedConsole;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --repeat} end to end on the loopback driver: interleaved runs, one result each, the
 * summary with intervals at their exact level and CPU, a percentile too few samples hold named
 * instead, and the paired comparison refusing a verdict from three rounds.
 */
class RepeatCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final CapturedConsole cli = new CapturedConsole();

  private Path workload(String name, int rate) throws IOException {
    return WorkloadYaml.oneTopic()
        .named(name)
        .rate(rate)
        .warmup(0.5)
        .writeTo(dir.resolve(name + ".yaml"));
  }

  private List<Path> results(String prefix) throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("out"))) {
      return files
          .filter(p -> p.getFileName().toString().startsWith(prefix))
          .filter(p -> p.getFileName().toString().endsWith(".json"))
          .sorted()
          .toList();
    }
  }

  @Test
  void repeatedRunsAreInterleavedSummarisedAndComparable() throws IOException {
    Path driver = LoopbackDriverFile.write(dir);
    Path slow = workload("slow", 1000);
    Path fast = workload("fast", 2000);
    int status =
        cli.run(
            "--repeat",
            "3",
            "--include-all",
            "--primary",
            "throughput",
            "-d",
            driver.toString(),
            "-o",
            dir.resolve("out").toString(),
            slow.toString(),
            fast.toString());
    String console = cli.out();
    assertEquals(0, status, console + cli.err());

    List<Path> summaries = results("repeat-summary-");
    assertEquals(1, summaries.size());
    assertEquals(3, results("slow-loopback-run").size());
    assertEquals(3, results("fast-loopback-run").size());
    JsonNode summary = JSON.readTree(summaries.get(0).toFile());
    List<String> order = new ArrayList<>();
    summary.path("order").forEach(run -> order.add(run.path("workload").asText()));
    assertEquals(List.of("slow", "fast", "fast", "slow", "slow", "fast"), order);

    JsonNode slowPair = summary.path("pairs").get(0);
    assertEquals(3, slowPair.path("countedRuns").asInt());
    JsonNode rate = slowPair.path("metrics").path("publish rate");
    assertEquals(3, rate.path("values").size());
    // Three runs: the widest signed-rank interval covers 1 - 2/8 = 75%.
    assertEquals(0.75, rate.path("interval").path("level").asDouble(), 1e-12);
    double low = rate.path("interval").path("low").asDouble();
    double high = rate.path("interval").path("high").asDouble();
    double estimate = rate.path("estimate").asDouble();
    assertTrue(low > 0 && low <= estimate && estimate <= high, rate.toString());
    // About 1,000 samples a run: p99.99 would need 100,000.
    assertTrue(
        slowPair
            .path("metrics")
            .path("end-to-end p99.99")
            .path("notReported")
            .asText()
            .startsWith("not reported: p99.99 needs 100,000 samples a run"),
        slowPair.toString());
    assertTrue(slowPair.path("metrics").path("end-to-end p50").path("interval").isObject());
    assertTrue(slowPair.path("metrics").path("worker CPU").path("median").asDouble() > 0);
    assertTrue(
        console.contains(
            "== slow with " + driver + " (Loopback): 3 run(s), 3 counted (--include-all)"),
        console);

    // fast against slow, round by round: three rounds give no verdict, and say why.
    assertTrue(console.contains("== B against A: fast with " + driver), console);
    assertTrue(
        console.contains(
            "VERDICT      publish rate: no verdict: 3 paired round(s) reach at best a 75.0%"
                + " interval; 5 or more are needed"),
        console);
    JsonNode comparison = summary.path("comparisons").get(0);
    assertEquals(3, comparison.path("pairedRounds").asInt());
    assertEquals("publish rate", comparison.path("primary").asText());
    assertEquals("NONE", comparison.path("verdicts").path("publish rate").asText());
    assertEquals("NONE", comparison.path("intervalVerdicts").path("end-to-end p50").asText());

    // The report of the summary brings every run and the table of intervals.
    Path html = dir.resolve("out/report.html");
    assertEquals(0, cli.run("report", summaries.get(0).toString(), "-o", html.toString()));
    String page = Files.readString(html);
    assertTrue(page.contains("<h2>Repeated runs: 3 of each pair</h2>"), page);
    assertTrue(page.contains("<th>publish rate</th><td>msg/s</td>"));
    assertTrue(page.contains("75.0% "), page);

    cli.clearOut();
    List<String> args = new ArrayList<>(List.of("compare", "--include-all"));
    results("slow-").forEach(p -> args.add(p.toString()));
    args.add("--");
    results("fast-").forEach(p -> args.add(p.toString()));
    assertEquals(0, cli.run(args.toArray(String[]::new)), cli.err());
    String compared = cli.out();
    assertTrue(compared.contains("Rounds       3 paired (--include-all)"), compared);
  }

  @Test
  void searchesAndSweepsAreRefused() throws IOException {
    assertRefused(
        "--repeat: applies to fixed-rate and peak runs; drop --rates",
        "--repeat",
        "3",
        "--rates",
        "1k,2k");
    assertRefused("--repeat: expected 2 to 100 runs of each pair, got 1", "--repeat", "1");
    assertRefused(
        "--margin: expected a percentage above 0 and at most 100",
        "--repeat",
        "3",
        "--margin",
        "0%");
    assertRefused("--primary, --margin and --include-all apply to --repeat runs", "--include-all");
  }

  /**
   * {@code options}, with the loopback driver and a 10 msg/s workload, exit with status 2 and an
   * error that starts with {@code expected}.
   */
  private void assertRefused(String expected, String... options) throws IOException {
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(
        List.of("-d", LoopbackDriverFile.write(dir).toString(), workload("w", 10).toString()));
    assertEquals(2, cli.run(args.toArray(new String[0])));
    assertTrue(cli.err().startsWith("error: " + expected));
    cli.clearErr();
  }

  /**
   * A peak workload repeats its search in every round: a stand-in broker serving 3,000 msg/s, two
   * rounds. Each result holds its search and the summary estimates the stable peak (the default
   * primary of such rounds: PairedComparisonTest).
   */
  @Test
  void repeatedPeakRunsSearchEveryRoundAndSummariseTheStablePeak() throws IOException {
    Path capacity = dir.resolve("capacity.yaml");
    Files.writeString(
        capacity, "name: Capacity\ndriverClass: io.plumb.search.CapacityDriver\ncapacity: 3000\n");
    int status =
        cli.run(
            "--repeat",
            "2",
            "--include-all",
            "--search-start",
            "2000",
            "--probe-seconds",
            "0.5",
            "-d",
            capacity.toString(),
            "-o",
            dir.resolve("out").toString(),
            workload("peak", 0).toString());
    String console = cli.out();
    assertEquals(0, status, console + cli.err());

    List<Path> rounds = results("peak-capacity-run");
    assertEquals(2, rounds.size(), console);
    for (Path round : rounds) {
      assertTrue(JSON.readTree(round.toFile()).path("search").isObject(), round.toString());
    }
    JsonNode summary = JSON.readTree(results("repeat-summary-").get(0).toFile());
    JsonNode stablePeak = summary.path("pairs").get(0).path("metrics").path("stable peak");
    assertEquals(2, stablePeak.path("values").size(), stablePeak.toString());
    for (JsonNode value : stablePeak.path("values")) {
      // Within the search's precision (5%) of the capacity, after any step down.
      assertTrue(value.asDouble() >= 3000 * 0.85 && value.asDouble() <= 3000 * 1.05, console);
    }
  }
}
