package io.plumb.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bin/benchmark report}: one self-contained HTML report from any number of results. */
@Command(
    name = "benchmark report",
    sortOptions = false,
    description = {
      "Makes one HTML report from results written by bin/benchmark:",
      "  - latency percentiles, p0 to p99.9999 and max, on a logarithmic \"nines\" axis,",
      "    one line per result (publish, end-to-end, service time);",
      "  - publish and consume rates, backlog and p99 latency over time;",
      "  - a table of rates, MB/s, percentiles, errors, lost and duplicated messages,",
      "    generator verdicts, search outcomes, and the settings that differ.",
      "",
      "The page holds everything it needs (Chart.js is inlined): it opens offline.",
      "Beside it go the histograms as HdrHistogram percentile files",
      "(<result>.<latency>.hgrm, in microseconds) for HdrHistogram's own tools.",
      "",
      "Exit status: 0 written, 2 bad input.",
    },
    footer = {
      "",
      "Examples:",
      "  bin/benchmark report results/*.json -o report.html",
      "",
      "  # what fsync per message costs, at a glance:",
      "  bin/benchmark -d driver-kafka/kafka.yaml,driver-kafka/kafka-sync.yaml \\",
      "      -o results/sync workloads/quick-1kb-10k.yaml",
      "  bin/benchmark report results/sync/*.json -o results/sync/report.html",
    })
public final class ReportCommand implements Callable<Integer> {
  @Parameters(
      arity = "0..*",
      paramLabel = "RESULT",
      description = "Result JSON file(s) written by bin/benchmark, e.g. results/*.json.")
  List<Path> results = new ArrayList<>();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "The HTML file to write (default: report.html); .hgrm files go beside it.")
  Path output = Path.of("report.html");

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help and exit.")
  boolean help;

  private final PrintStream out;

  public ReportCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws IOException {
    Report.Written written = Report.write(results, output);
    out.println("Report       " + written.html());
    if (!written.hgrmFiles().isEmpty()) {
      out.printf(
          "Histograms   %d .hgrm file(s) beside it, e.g. %s%n",
          written.hgrmFiles().size(), written.hgrmFiles().get(0).getFileName());
    }
    return 0;
  }
}
