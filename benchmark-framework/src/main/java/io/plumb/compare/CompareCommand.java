package io.plumb.compare;

import io.plumb.input.BadInputException;
import io.plumb.repeat.Difference;
import io.plumb.repeat.Metric;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code bin/benchmark compare A... -- B...}: is B different from A, beyond the runs' noise? */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Compares the results of two configurations, each run several times (bin/benchmark --repeat N):",
      "for throughput, publish and end-to-end latency p50 to p99.99 and CPU, the ratio of B to A with",
      "its 95% confidence interval, and a verdict in words: 'B faster by 12.0% (95% CI 8.1% to",
      "16.2%)', or 'not distinguishable' when the interval holds no difference. Intervals are Welch's",
      "t on the logarithms of each run's figure (Apache Commons Math); with fewer than 3 complete",
      "runs a side no verdict is given. Incomplete runs are left out.",
    },
    footer = {
      "",
      "Examples:",
      "  # what fsync per message costs: five interleaved runs of each file,",
      "  # then the verdicts",
      "  bin/benchmark --repeat 5 -o results/fsync \\",
      "      -d driver-kafka/kafka.yaml,driver-kafka/kafka-sync.yaml \\",
      "      workloads/quick-1kb-10k.yaml",
      "  bin/benchmark compare results/fsync/*-kafka-run*.json \\",
      "      -- results/fsync/*-kafka-sync-run*.json",
    })
public final class CompareCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "RESULT",
      arity = "3..*",
      description =
          "A's result files or directories, then --, then B's. Each side holds the runs of one workload and driver file.")
  List<String> arguments;

  private final PrintStream out;

  public CompareCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    int split = arguments.indexOf("--");
    if (split < 0 || arguments.lastIndexOf("--") != split) {
      throw new BadInputException(
          "compare: separate A's results from B's with one '--' (bin/benchmark compare A... -- B...)");
    }
    ResultSide a = ResultSide.read("A", paths(arguments.subList(0, split)));
    ResultSide b = ResultSide.read("B", paths(arguments.subList(split + 1, arguments.size())));
    print(a, b, Comparison.of(a, b));
    return 0;
  }

  private static List<Path> paths(List<String> names) {
    List<Path> paths = new ArrayList<>();
    names.forEach(name -> paths.add(Path.of(name)));
    return paths;
  }

  private void print(ResultSide a, ResultSide b, List<Comparison.Line> lines) {
    for (ResultSide side : List.of(a, b)) {
      int left = side.results().size() - side.complete().size();
      out.printf(
          "%s  %s: %d run(s)%s%n",
          side.name(),
          side.configuration(),
          side.complete().size(),
          left > 0 ? ", " + left + " incomplete left out" : "");
    }
    out.printf("%-18s %6s %12s %12s  %s%n", "metric", "unit", "A median", "B median", "B vs A");
    for (Comparison.Line line : lines) {
      Metric metric = line.metric();
      out.printf(
          "%-18s %6s %12s %12s  %s%n",
          metric.name(),
          metric.unit(),
          format(metric, line.a().median()),
          format(metric, line.b().median()),
          line.verdict());
    }
    out.println("(" + Difference.METHOD + ")");
  }

  private static String format(Metric metric, double value) {
    return switch (metric.unit()) {
      case "msg/s" -> String.format("%,.0f", value);
      case "cores" -> String.format("%.2f", value);
      default -> value >= 100 ? String.format("%.1f", value) : String.format("%.3f", value);
    };
  }
}
