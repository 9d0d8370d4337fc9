package io.plumb.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.result.ResultJson;
import io.plumb.result.ResultWriter;
import io.plumb.result.RunReport;
import io.plumb.search.FinalMeasurement;
import io.plumb.search.LatencyTarget;
import io.plumb.search.ProbeOutcome;
import io.plumb.search.RateSearch;
import io.plumb.search.RunProber;
import io.plumb.search.SearchJson;
import io.plumb.search.SearchResult;
import io.plumb.search.SearchSettings;
import io.plumb.search.SearchStep;
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

/**
 * A peak search ({@code producerRate: 0}) or latency-target search ({@code --slo}), then one
 * measurement at the rate found for the workload's own warm-up and duration, written as one result
 * with the search's steps under {@code search}.
 */
final class SearchRuns {
  private final SearchSettings settings;
  private final Optional<LatencyTarget> target;
  private final RunSetup setup;
  private final PrintStream out;

  SearchRuns(RunSetup setup, SearchSettings settings, Optional<LatencyTarget> target) {
    this.setup = setup;
    this.out = setup.out();
    this.settings = settings;
    this.target = target;
  }

  int run(Workload workload, Path driver, ResultPaths paths, List<Path> written)
      throws IOException {
    return run(workload, driver, paths, null, written).status();
  }

  /**
   * Searches, measures at the rate found and writes the one result to {@code fixedTarget}, or where
   * {@code paths} puts it: {@code --repeat} names each round's result itself.
   */
  BenchmarkCommand.Written run(
      Workload workload, Path driver, ResultPaths paths, Path fixedTarget, List<Path> written)
      throws IOException {
    String goal = target.map(LatencyTarget::describe).orElse("peak");
    // An SLO search never goes above the workload's own rate, when it names one.
    SearchSettings used =
        workload.producerRate() > 0 ? settings.withMaxRate(workload.producerRate()) : settings;
    out.printf(
        "%n=== %s with %s: %s search from %,.0f msg/s, probes of %.1f + %.1f s%n",
        workload.file(),
        driver,
        goal,
        used.startRate(),
        used.probeWarmup().toMillis() / 1e3,
        used.probeDuration().toMillis() / 1e3);
    RunProber prober = new RunProber(workload, driver, setup.workers(), setup.options(), target);
    SearchResult result =
        setup
            .current()
            .during(
                prober::abort,
                () -> new RateSearch(prober, new StepJudge(target), used, this::print).run(goal));
    out.println("Search       " + result.conclusion());
    if (!result.complete() || result.foundRate().isEmpty()) {
      Path target =
          fixedTarget != null ? fixedTarget : paths.pathFor(workload.name() + "-search", "failed");
      ObjectNode json = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
      json.put("workload", workload.name());
      json.put("driver", driver.toString());
      json.put("complete", false);
      json.put(
          "incompleteReason",
          result.complete()
              ? "no rate was sustained: " + result.conclusion()
              : result.incompleteReason());
      json.set("search", SearchJson.render(result, List.of()));
      ResultWriter.write(json, target);
      written.add(target);
      out.println("Result       " + target);
      return new BenchmarkCommand.Written(1, target, json);
    }
    // The measurement at the rate found must hold for the workload's whole duration; a short probe
    // can pass a rate that a longer run cannot keep, so a failed measurement steps down by the
    // search's precision and measures again, a bounded number of times. Every attempt is recorded.
    double rate = result.foundRate().get();
    List<FinalMeasurement> attempts = new ArrayList<>();
    while (true) {
      Measured measured = measure(workload, driver, rate);
      attempts.add(new FinalMeasurement(rate, measured.outcome(), measured.verdict()));
      boolean last =
          measured.verdict().sustained()
              || !measured.report().complete()
              || attempts.size() == FinalMeasurement.MAX_ATTEMPTS;
      out.println(
          "Search       measurement at "
              + String.format("%,.0f msg/s: ", rate)
              + (measured.verdict().sustained() ? "" : "NOT SUSTAINED over the full duration: ")
              + measured.verdict().reason());
      if (last) {
        ObjectNode json = ResultJson.render(measured.report());
        json.set("search", SearchJson.render(result, attempts));
        BacklogJson.add(json, measured.run());
        Path file =
            fixedTarget != null
                ? fixedTarget
                : paths.pathFor(workload.name(), measured.report().driverName());
        ResultWriter.write(json, file);
        written.add(file);
        if (measured.verdict().sustained() && attempts.size() > 1) {
          out.printf(
              "Search       stable peak: %,.0f msg/s held for the full duration (%,.0f msg/s did"
                  + " not)%n",
              rate, attempts.get(attempts.size() - 2).rate());
        }
        boolean noStablePeak = measured.report().complete() && !measured.verdict().sustained();
        if (noStablePeak) {
          // The result is written for its measurements, but its figure is missing: a script that
          // reads the exit status must not take it for a peak.
          out.printf(
              "Search       no stable peak: none of the %d full-duration measurements, %,.0f down to"
                  + " %,.0f msg/s, held its rate (exit status 1)%n",
              attempts.size(), attempts.get(0).rate(), rate);
        }
        ConsoleReporter.written(out, file);
        return new BenchmarkCommand.Written(
            measured.report().complete() && !noStablePeak ? 0 : 1, file, json);
      }
      rate = Math.round(rate / (1 + settings.precision()));
      out.printf(
          "Search       stepping down %.0f%% to %,.0f msg/s and measuring again (attempt %d of"
              + " %d)%n",
          settings.precision() * 100, rate, attempts.size() + 1, FinalMeasurement.MAX_ATTEMPTS);
    }
  }

  /** One full-duration run at a fixed rate, judged like a probe. */
  private Measured measure(Workload workload, Path driver, double rate) {
    out.printf(
        "Measuring    at %,.0f msg/s for %.0f s after %.0f s of warm-up, without changing the rate%n",
        rate, workload.testDuration().toMillis() / 1e3, workload.warmupDuration().toMillis() / 1e3);
    Worker worker = setup.workers().get();
    long start = System.nanoTime();
    BenchmarkRun run = setup.atRate(workload, driver, rate, worker);
    RunReport report = setup.current().execute(run);
    ProbeOutcome outcome =
        RunProber.outcome(
            rate,
            report,
            Math.max(0, run.scheduleLagAtEnd()),
            (System.nanoTime() - start) / 1e9,
            target);
    return new Measured(run, report, outcome, new StepJudge(target).judge(outcome));
  }

  private record Measured(
      BenchmarkRun run, RunReport report, ProbeOutcome outcome, StepVerdict verdict) {}

  private void print(SearchStep step) {
    ProbeOutcome o = step.outcome();
    out.printf(
        "search %2d %-7s %,11.0f msg/s: sent %,.0f ack %,.0f recv %,.0f msg/s | backlog %+,.0f/s | send delay p50 %s p99 %s ms%s | %.1f s -> %s%n",
        step.index(),
        step.stage(),
        o.targetRate(),
        o.publishRate(),
        o.acknowledgeRate(),
        o.consumeRate(),
        o.backlogSlope(),
        ConsoleReporter.ms(o.sendDelayP50Nanos() / 1e6),
        ConsoleReporter.ms(o.sendDelayP99Nanos() / 1e6),
        o.latencyNanos() >= 0
            ? String.format(" | target latency %s ms", ConsoleReporter.ms(o.latencyNanos() / 1e6))
            : "",
        o.resultTimeSeconds(),
        step.verdict().sustained()
            ? "sustained"
            : step.verdict().label() + ": " + step.verdict().reason());
  }
}
