package io.plumb.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.remote.CrossHostLatency;
import io.plumb.remote.DistributedWorkers;
import io.plumb.result.Percentiles;
import io.plumb.result.ResultJson;
import io.plumb.result.ResultWriter;
import io.plumb.result.RunReport;
import io.plumb.search.RunProber;
import io.plumb.search.StepJudge;
import io.plumb.search.StepVerdict;
import io.plumb.worker.Worker;
import io.plumb.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.HdrHistogram.Histogram;

/**
 * {@code --rates}: runs the workload once per rate (each a complete run with the workload's own
 * warm-up and duration), writes one result per rate, then a summary JSON and a table.
 */
final class SweepRuns {
  private final List<Double> rates;
  private final RunSetup setup;
  private final PrintStream out;

  SweepRuns(RunSetup setup, List<Double> rates) {
    this.setup = setup;
    this.out = setup.out();
    this.rates = rates;
  }

  /**
   * One row of the summary.
   *
   * @param clockUncertaintyNanos how far its end-to-end figures can be off from the clock offsets
   *     between hosts; empty when no message crossed hosts
   * @param verdict whether the rate held, judged as a search probe is; empty for a backlog
   *     workload, whose build and drain are no steady rate to judge
   */
  record Row(
      double rate,
      RunReport report,
      Path file,
      OptionalLong clockUncertaintyNanos,
      Optional<StepVerdict> verdict) {}

  int run(Workload workload, Path driver, ResultPaths paths, List<Path> written)
      throws IOException {
    List<Row> rows = new ArrayList<>();
    int status = 0;
    String driverName = driver.getFileName().toString();
    for (double rate : rates) {
      out.printf("%n=== %s with %s: sweep step %,.0f msg/s%n", workload.file(), driver, rate);
      Worker worker = setup.workers().get();
      BenchmarkRun run = setup.atRate(workload, driver, rate, worker);
      long start = System.nanoTime();
      RunReport report = setup.current().execute(run);
      // A step whose broker acknowledged or delivered a fraction of the rate, its producers never
      // blocked, sent no error and lost nothing: the rate did not hold, and the table must not say
      // "ok". The same judge as a search probe's says so.
      Optional<StepVerdict> verdict =
          workload.consumerBacklogSizeGB() > 0
              ? Optional.empty()
              : Optional.of(
                  new StepJudge(Optional.empty())
                      .judge(
                          RunProber.outcome(
                              rate,
                              report,
                              Math.max(0, run.scheduleLagAtEnd()),
                              (System.nanoTime() - start) / 1e9,
                              Optional.empty())));
      driverName = report.driverName();
      ObjectNode json = ResultJson.render(report);
      WorkersJson.add(json, worker, report);
      BacklogJson.add(json, run);
      Path file = paths.pathFor(workload.name() + "-" + label(rate), report.driverName());
      ResultWriter.write(json, file);
      written.add(file);
      out.println("Result       " + file);
      rows.add(
          new Row(
              rate,
              report,
              file,
              worker instanceof DistributedWorkers ensemble
                  ? ensemble.endToEndClockUncertaintyNanos()
                  : OptionalLong.empty(),
              verdict));
      if (!report.complete()) {
        status = 1;
        if (report.incompleteReason() != null
            && report.incompleteReason().contains("interrupted")) {
          break; // Ctrl-C ends the sweep; what was measured is written below
        }
      }
    }
    Path summary = paths.pathFor(workload.name() + "-sweep", driverName);
    ResultWriter.write(summary(workload, driverName, rows), summary);
    printTable(workload, driverName, rows);
    out.println("Summary      " + summary);
    return status;
  }

  static String label(double rate) {
    if (rate >= 1e6 && rate % 1e6 == 0) {
      return (long) (rate / 1e6) + "M";
    }
    if (rate >= 1e3 && rate % 1e3 == 0) {
      return (long) (rate / 1e3) + "k";
    }
    return Long.toString(Math.round(rate));
  }

  static ObjectNode summary(Workload workload, String driverName, List<Row> rows) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("workload", workload.name());
    json.put("driver", driverName);
    json.put("messageSize", workload.messageSize());
    ObjectNode sweep = json.putObject("sweep");
    ArrayNode rates = sweep.putArray("ratesMsgPerSec");
    rows.forEach(row -> rates.add(row.rate()));
    ArrayNode steps = sweep.putArray("steps");
    for (Row row : rows) {
      RunReport r = row.report();
      ObjectNode step = steps.addObject();
      step.put("targetRateMsgPerSec", row.rate());
      step.put("result", row.file().toString());
      step.put("complete", r.complete());
      if (!r.complete()) {
        step.put("incompleteReason", r.incompleteReason());
      }
      step.put("generatorBound", !r.generatorBoundReasons().isEmpty());
      row.verdict()
          .ifPresent(
              verdict -> {
                step.put("verdict", verdict.label());
                step.put("sustained", verdict.sustained());
                step.put("reason", verdict.reason());
              });
      step.put("publishRateMsgPerSec", r.publishRate());
      step.put("consumeRateMsgPerSec", r.consumeRate());
      step.put("publishMBPerSec", r.publishRate() * workload.messageSize() / (1024 * 1024));
      step.set("publishLatencyMs", latency(r.measured().publishLatency()));
      step.set("endToEndLatencyMs", latency(r.measured().endToEndLatency()));
      row.clockUncertaintyNanos()
          .ifPresent(nanos -> step.put("endToEndClockUncertaintyMs", nanos / 1e6));
      step.put("failed", r.counters().failed());
      step.put("lost", r.counters().lost());
      step.put("duplicated", r.counters().duplicated());
    }
    return json;
  }

  private static ObjectNode latency(Histogram histogram) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    for (double p : List.of(50.0, 99.0, 99.9, 99.99)) {
      node.put(Percentiles.label(p), Percentiles.millis(histogram, p));
    }
    node.put("max", Percentiles.maxMillis(histogram));
    return node;
  }

  private void printTable(Workload workload, String driverName, List<Row> rows) {
    out.printf("%n== sweep of %s on %s%n", workload.name(), driverName);
    out.printf(
        "%12s %12s %12s %9s | %9s %9s %9s %9s | %9s %9s %9s | %s%n",
        "target/s",
        "published/s",
        "consumed/s",
        "MB/s",
        "pub p50",
        "pub p99",
        "pub p99.9",
        "pub max",
        "e2e p50",
        "e2e p99",
        "e2e max",
        "verdict");
    for (Row row : rows) {
      RunReport r = row.report();
      Histogram pub = r.measured().publishLatency();
      Histogram e2e = r.measured().endToEndLatency();
      String verdict =
          !r.complete()
              ? "INCOMPLETE"
              : !r.generatorBoundReasons().isEmpty()
                  ? "GENERATOR-BOUND"
                  : r.counters().failed() > 0 || r.counters().lost() > 0
                      ? "ERRORS"
                      : row.verdict()
                          .filter(v -> !v.sustained())
                          .map(StepVerdict::label)
                          .orElse("ok");
      out.printf(
          "%,12.0f %,12.0f %,12.0f %9.2f | %9s %9s %9s %9s | %9s %9s %9s | %s%n",
          row.rate(),
          r.publishRate(),
          r.consumeRate(),
          r.publishRate() * workload.messageSize() / (1024 * 1024),
          ms(pub, 50),
          ms(pub, 99),
          ms(pub, 99.9),
          pub.getTotalCount() == 0 ? "-" : ConsoleReporter.ms(Percentiles.maxMillis(pub)),
          ms(e2e, 50),
          ms(e2e, 99),
          e2e.getTotalCount() == 0 ? "-" : ConsoleReporter.ms(Percentiles.maxMillis(e2e)),
          verdict + clocks(row));
    }
    out.println("(latencies in ms, from the intended send time)");
    for (Row row : rows) {
      crossHost(row)
          .flatMap(CrossHostLatency::warning)
          .ifPresent(
              warning -> out.printf("Clocks       at %,.0f msg/s: %s%n", row.rate(), warning));
    }
  }

  /** After the verdict, for a step across hosts: how well its end-to-end figures are known. */
  private static String clocks(Row row) {
    return crossHost(row).map(c -> " (e2e clocks " + c.plusMinus() + ")").orElse("");
  }

  private static Optional<CrossHostLatency> crossHost(Row row) {
    Histogram endToEnd = row.report().measured().endToEndLatency();
    if (row.clockUncertaintyNanos().isEmpty() || endToEnd.getTotalCount() == 0) {
      return Optional.empty();
    }
    return Optional.of(CrossHostLatency.of(row.clockUncertaintyNanos().getAsLong(), endToEnd));
  }

  private static String ms(Histogram histogram, double percentile) {
    return histogram.getTotalCount() == 0
        ? "-"
        : ConsoleReporter.ms(Percentiles.millis(histogram, percentile));
  }
}
