package io.plumb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.repeat.ComparisonReport;
import io.plumb.repeat.Difference;
import io.plumb.repeat.Estimate;
import io.plumb.repeat.PairSummary;
import io.plumb.repeat.PairedComparison;
import io.plumb.repeat.PrimaryMetric;
import io.plumb.repeat.RepeatOrder;
import io.plumb.repeat.Rounds;
import io.plumb.repeat.SharedHostCaveat;
import io.plumb.result.ResultWriter;
import io.plumb.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * {@code --repeat N}: every workload and driver pair runs N times through the single-run path, in
 * interleaved rounds (see {@link RepeatOrder}), each run writing its own result; then one summary
 * per pair (estimate and interval of every metric) on the console and in {@code
 * repeat-summary-<time>.json}, whose {@code order} records the sequence the runs took. With more
 * than one pair, each later pair is compared with the first over their paired rounds (see {@link
 * PairedComparison}), its verdicts printed and written under {@code comparisons}.
 */
final class RepeatRuns {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  /** A workload and driver file run together. */
  record Pair(Workload workload, Path driver) {}

  /** Runs one pair once and writes its result to the path given. */
  interface SingleRun {
    BenchmarkCommand.Written run(Workload workload, Path driver, String resultName)
        throws IOException;
  }

  private final PrintStream out;
  private final int repeat;
  private final Path directory;
  private final BooleanSupplier interrupted;
  private final Judging judging;

  /** How the runs are judged: --primary, --margin (a share, 0.05) and --include-all. */
  record Judging(PrimaryMetric primary, double margin, boolean includeAll) {}

  /**
   * @param interrupted true once the user pressed Ctrl-C: no further run starts
   */
  RepeatRuns(
      PrintStream out, int repeat, Path output, BooleanSupplier interrupted, Judging judging) {
    this.out = out;
    this.repeat = repeat;
    this.interrupted = interrupted;
    this.judging = judging;
    this.directory = output == null ? Path.of("results") : output;
  }

  int run(List<Pair> pairs, SingleRun single, List<Path> written) throws IOException {
    List<List<PairSummary.Run>> runs = new ArrayList<>();
    pairs.forEach(p -> runs.add(new ArrayList<>()));
    List<String> driverNames = new ArrayList<>(pairs.stream().map(p -> "").toList());
    ObjectNode summary = MAPPER.createObjectNode();
    summary.put("repeat", repeat);
    summary.put("orderRule", "rounds of every pair, forward then backward in turn (A B, B A, ...)");
    summary.put("intervalMethod", Estimate.METHOD);
    summary.put("compareMethod", Difference.METHOD);
    summary.put("margin", judging.margin());
    summary.put("includeAll", judging.includeAll());
    ArrayNode order = summary.putArray("order");
    int status = 0;
    int position = 0;
    List<Integer> sequence = RepeatOrder.of(pairs.size(), repeat);
    Path summaryFile =
        directory.resolve("repeat-summary-" + LocalDateTime.now().format(STAMP) + ".json");
    try {
      for (int index : sequence) {
        if (interrupted.getAsBoolean()) {
          break; // Ctrl-C between runs: summarise what ran
        }
        Pair pair = pairs.get(index);
        int round = position / pairs.size() + 1;
        position++;
        out.printf(
            "%n--- repeat %d of %d (run %d of %d)%n", round, repeat, position, sequence.size());
        String name = baseName(pair.driver()) + "-run" + round;
        BenchmarkCommand.Written result = single.run(pair.workload(), pair.driver(), name);
        status = Math.max(status, result.status());
        runs.get(index).add(new PairSummary.Run(result.path(), result.json()));
        driverNames.set(index, result.json().path("driver").asText());
        ObjectNode entry = order.addObject();
        entry.put("round", round);
        entry.put("workload", pair.workload().name());
        entry.put("driverFile", pair.driver().toString());
        entry.put("result", result.path().toString());
        if (result.json().path("incompleteReason").asText("").startsWith("interrupted")) {
          break; // Ctrl-C: summarise what ran instead of starting the next run
        }
      }
    } finally {
      // Written even when a run failed or the user interrupted: what ran is summarised.
      ArrayNode summaries = summary.putArray("pairs");
      for (int i = 0; i < pairs.size(); i++) {
        if (runs.get(i).isEmpty()) {
          continue;
        }
        PairSummary pair =
            new PairSummary(
                pairs.get(i).workload().name(),
                pairs.get(i).driver(),
                driverNames.get(i),
                runs.get(i),
                judging.includeAll());
        pair.print(out);
        summaries.add(pair.toJson());
      }
      List<JsonNode> all = new ArrayList<>();
      runs.forEach(pairRuns -> pairRuns.forEach(run -> all.add(run.json())));
      SharedHostCaveat.of(all)
          .ifPresent(
              caveat -> {
                out.println("Caveat       " + caveat);
                summary.put("caveat", caveat);
              });
      compareWithFirst(pairs, runs, summary.putArray("comparisons"));
      if (!order.isEmpty()) {
        ResultWriter.write(summary, summaryFile);
        out.println("Summary      " + summaryFile);
        ConsoleReporter.reportCommand(out, summaryFile);
        if (pairs.size() > 1) {
          out.println(
              "Compare      bin/benchmark compare <results of one pair> -- <results of another>");
        }
      }
    }
    return status;
  }

  /** Each later pair against the first, round by round, with the verdicts and their evidence. */
  private void compareWithFirst(
      List<Pair> pairs, List<List<PairSummary.Run>> runs, ArrayNode comparisons) {
    for (int i = 1; i < pairs.size(); i++) {
      out.printf(
          "%n== B against A: %s with %s against %s with %s%n",
          pairs.get(i).workload().name(),
          pairs.get(i).driver(),
          pairs.get(0).workload().name(),
          pairs.get(0).driver());
      Rounds rounds = Rounds.pair(runs.get(0), runs.get(i), judging.includeAll());
      rounds.leftOut().forEach(line -> out.println("   " + line));
      ObjectNode json = comparisons.addObject();
      json.put("a", pairs.get(0).driver() + " " + pairs.get(0).workload().name());
      json.put("b", pairs.get(i).driver() + " " + pairs.get(i).workload().name());
      json.put("pairedRounds", rounds.a().size());
      if (rounds.a().isEmpty()) {
        out.println("VERDICT      none: no round has two runs that count");
        continue;
      }
      PairedComparison comparison =
          PairedComparison.of(
              rounds.a().stream().map(PairSummary.Run::json).toList(),
              rounds.b().stream().map(PairSummary.Run::json).toList(),
              judging.primary(),
              judging.margin());
      ComparisonReport.print(out, comparison);
      json.put("primary", comparison.primary().metric().name());
      PairedComparison.Line primary = comparison.primaryLine();
      if (primary != null && primary.difference() != null) {
        json.put("verdict", primary.verdict() == null ? null : primary.verdict().name());
        json.put("ratio", primary.difference().ratio());
        json.put("low", primary.difference().low());
        json.put("high", primary.difference().high());
        json.put("level", primary.difference().level());
      }
      json.put("headline", ComparisonReport.headline(comparison, primary));
      // Each metric's verdict after the family control, and its interval's alone: the verdict it
      // would get as the primary (bin/ab-check reads both).
      ObjectNode verdicts = json.putObject("verdicts");
      ObjectNode alone = json.putObject("intervalVerdicts");
      for (PairedComparison.Line line : comparison.lines()) {
        String name = line.metric().name();
        verdicts.put(name, line.verdict() == null ? "NONE" : line.verdict().name());
        alone.put(
            name,
            line.verdict() == null
                ? "NONE"
                : line.difference().intervalVerdict(comparison.margin()).name());
      }
    }
  }

  private static String baseName(Path driver) {
    String name = driver.getFileName().toString();
    return name.replaceFirst("\\.ya?ml$", "");
  }
}
