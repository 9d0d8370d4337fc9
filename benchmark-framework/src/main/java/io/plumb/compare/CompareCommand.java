package io.plumb.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.input.BadInputException;
import io.plumb.repeat.ComparisonReport;
import io.plumb.repeat.PairSummary;
import io.plumb.repeat.PairedComparison;
import io.plumb.repeat.PrimaryMetric;
import io.plumb.repeat.Rounds;
import io.plumb.repeat.SharedHostCaveat;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bin/benchmark compare A... -- B...}: is B different from A, beyond the runs' noise? */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Compares the results of two configurations run in interleaved rounds (bin/benchmark",
      "--repeat N): each run is paired with the other side's run that started next to it. For",
      "throughput, publish and end-to-end latency p50 to p99.99 and CPU: the Hodges-Lehmann",
      "estimate of B/A from the per-round ratios, with its exact Wilcoxon signed-rank interval",
      "(95%%, or the closest level the rounds reach: 93.8%% with 5), and a verdict against a",
      "margin: 'B faster: 1.102x A, beyond ±5%%' when the interval lies beyond the band,",
      "'same within ±5%%' when inside it, 'not distinguishable' otherwise. The headline verdict",
      "is about the primary metric; the other metrics share one error budget (Holm). Fewer than",
      "5 rounds give no verdict. A percentile needs 10/(1-q) samples a run (p99: 1,000). Runs",
      "that were incomplete, lost messages or were generator-bound are left out with their",
      "round's partner, one line each.",
    },
    footer = {
      "",
      "Examples:",
      "  # what fsync per message costs: five interleaved runs of each file,",
      "  # then the verdicts",
      "  bin/benchmark --repeat 5 -o results/fsync \\",
      "      -d driver-kafka/kafka.yaml,driver-kafka/kafka-sync.yaml \\",
      "      workloads/quick-1kb-10k.yaml",
      "  bin/benchmark compare --primary p99 results/fsync/*-kafka-run*.json \\",
      "      -- results/fsync/*-kafka-sync-run*.json",
    })
public final class CompareCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "RESULT",
      arity = "3..*",
      description =
          "A's result files or directories, then --, then B's. Each side holds the runs of one workload and driver file.")
  List<String> arguments;

  @Option(
      names = "--primary",
      paramLabel = "METRIC",
      description =
          "The metric of the headline verdict: throughput, peak, p50, p75, p95, p99, p99.9, p99.99 (end-to-end, or publish without consumers) or a full name such as 'publish p99' or 'worker CPU'. Default: the stable peak when every run searched for its peak, end-to-end p99 when every run kept its fixed target rate, else throughput.")
  String primary;

  @Option(
      names = "--margin",
      paramLabel = "PERCENT",
      description =
          "The smallest difference that matters, e.g. 5%% (default) or 2.5%%: different only beyond it, same within it.")
  String margin = "5%";

  @Option(
      names = "--include-all",
      description =
          "Keep runs that were incomplete, lost messages or were generator-bound (left out by default).")
  boolean includeAll;

  @Spec CommandSpec spec;

  private final PrintStream out;

  public CompareCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    refuseUnknownOptions();
    PrimaryMetric primaryMetric = PrimaryMetric.parse(primary);
    double share = MarginOption.parse(margin);
    int split = arguments.indexOf("--");
    if (split < 0 || arguments.lastIndexOf("--") != split) {
      throw new BadInputException(
          "compare: separate A's results from B's with one '--' (bin/benchmark compare A... -- B...)");
    }
    ResultSide a = ResultSide.read("A", paths(arguments.subList(0, split)));
    ResultSide b = ResultSide.read("B", paths(arguments.subList(split + 1, arguments.size())));
    out.printf("A  %s: %d run(s)%n", a.configuration(), a.results().size());
    out.printf("B  %s: %d run(s)%n", b.configuration(), b.results().size());
    ResultSide.Matched matched = ResultSide.matchRounds(a, b);
    matched.unmatched().forEach(out::println);
    Rounds rounds = Rounds.pair(matched.a(), matched.b(), includeAll);
    rounds.leftOut().forEach(out::println);
    out.printf(
        "Rounds       %d paired%s%n", rounds.a().size(), includeAll ? " (--include-all)" : "");
    if (rounds.a().isEmpty()) {
      out.println("VERDICT      none: no round has two runs that count (--include-all keeps all)");
      return 0;
    }
    PairedComparison comparison =
        PairedComparison.of(
            rounds.a().stream().map(PairSummary.Run::json).toList(),
            rounds.b().stream().map(PairSummary.Run::json).toList(),
            primaryMetric,
            share);
    ComparisonReport.print(out, comparison);
    // As --repeat says it of the same runs: broker figures from a shared host are not capacities.
    List<JsonNode> all = new ArrayList<>();
    a.results().forEach(r -> all.add(r.json()));
    b.results().forEach(r -> all.add(r.json()));
    SharedHostCaveat.of(all).ifPresent(caveat -> out.println("Caveat       " + caveat));
    return 0;
  }

  /**
   * The parser takes unknown options for results so that "--" reaches this command (see {@code
   * Main}); here they are refused as the other commands' parsers refuse theirs, rather than as a
   * result file not found. "-" alone is no option.
   */
  private void refuseUnknownOptions() {
    for (String argument : arguments) {
      if (argument.startsWith("-") && argument.length() > 1 && !argument.equals("--")) {
        throw new ParameterException(spec.commandLine(), "unknown option or argument: " + argument);
      }
    }
  }

  private static List<Path> paths(List<String> names) {
    List<Path> paths = new ArrayList<>();
    names.forEach(name -> paths.add(Path.of(name)));
    return paths;
  }
}
