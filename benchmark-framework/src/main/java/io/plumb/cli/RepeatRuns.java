package io.plumb.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.repeat.Difference;
import io.plumb.repeat.Estimate;
import io.plumb.repeat.PairSummary;
import io.plumb.repeat.RepeatOrder;
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
 * per pair (median and 95% interval of every metric) on the console and in {@code
 * repeat-summary-<time>.json}, whose {@code order} records the sequence the runs took.
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

  /**
   * @param interrupted true once the user pressed Ctrl-C: no further run starts
   */
  RepeatRuns(PrintStream out, int repeat, Path output, BooleanSupplier interrupted) {
    this.out = out;
    this.repeat = repeat;
    this.interrupted = interrupted;
    this.directory = output == null ? Path.of("results") : output;
  }

  int run(List<Pair> pairs, SingleRun single, List<Path> written) throws IOException {
    List<List<PairSummary.Run>> runs = new ArrayList<>();
    pairs.forEach(p -> runs.add(new ArrayList<>()));
    List<String> driverNames = new ArrayList<>(pairs.stream().map(p -> "").toList());
    ObjectNode summary = MAPPER.createObjectNode();
    summary.put("repeat", repeat);
    summary.put("orderRule", "rounds of every pair, forward then backward in turn (A B, B A, ...)");
    summary.put("ci95Method", Estimate.METHOD);
    summary.put("compareMethod", Difference.METHOD);
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
                runs.get(i));
        pair.print(out);
        summaries.add(pair.toJson());
      }
      if (!order.isEmpty()) {
        ResultWriter.write(summary, summaryFile);
        out.println("Summary      " + summaryFile);
        out.println(
            "Report       bin/benchmark report "
                + summaryFile
                + " -o "
                + summaryFile.resolveSibling("report.html"));
        if (pairs.size() > 1) {
          out.println(
              "Compare      bin/benchmark compare <results of one pair> -- <results of another>");
        }
      }
    }
    return status;
  }

  private static String baseName(Path driver) {
    String name = driver.getFileName().toString();
    return name.replaceFirst("\\.ya?ml$", "");
  }
}
