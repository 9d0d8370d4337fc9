package io.plumb.cli;

import io.plumb.compare.MarginOption;
import io.plumb.fault.FaultPlan;
import io.plumb.input.BadInputException;
import io.plumb.repeat.PrimaryMetric;
import io.plumb.search.LatencyTarget;
import io.plumb.search.RateList;
import io.plumb.search.SearchSettings;
import io.plumb.worker.DriverLoader;
import io.plumb.workload.Workload;
import io.plumb.workload.WorkloadReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checks of {@link BenchmarkCommand}'s options, each refusing a mistake in one line before
 * anything runs. In two steps: the client log must be in place before the second loads any driver.
 */
final class BenchmarkOptionChecks {
  private final BenchmarkCommand command;

  /**
   * The options and workloads, checked.
   *
   * @param driverOverrides the settings of --driver-set, each key once
   * @param target the latency target of --slo
   * @param sweep the rates of --rates; null without
   */
  record CheckedInput(
      Map<String, String> driverOverrides,
      Optional<LatencyTarget> target,
      List<Double> sweep,
      SearchSettings searchSettings,
      List<Workload> workloads) {}

  /**
   * The runs the checked options ask for beyond one per workload and driver.
   *
   * @param judging how --repeat judges its runs; null without --repeat
   */
  record CheckedRuns(Optional<FaultPlan> faults, RepeatRuns.Judging judging) {}

  BenchmarkOptionChecks(BenchmarkCommand command) {
    this.command = command;
  }

  /** Checks the options and reads every workload; loads no driver. */
  CheckedInput checkOptionsAndWorkloads() {
    command.remote.validate();
    Map<String, String> driverOverrides = DriverSetOption.parse(command.driverSettings);
    Double periodSeconds = command.periodSeconds;
    if (periodSeconds != null && !(periodSeconds >= 0.1 && periodSeconds <= 3600)) {
      throw new BadInputException(
          "--period: expected seconds from 0.1 to 3600, got " + periodSeconds);
    }
    Optional<LatencyTarget> target =
        command.slo == null ? Optional.empty() : Optional.of(LatencyTarget.parse(command.slo));
    List<Double> sweep = command.rates == null ? null : RateList.parse(command.rates);
    if (target.isPresent() && sweep != null) {
      throw new BadInputException("--slo and --rates: give one or the other, not both");
    }
    SearchSettings searchSettings = SearchSettings.defaults();
    Double searchStart = command.searchStart;
    if (searchStart != null) {
      if (!(searchStart >= 1 && searchStart <= 1e9)) {
        throw new BadInputException(
            "--search-start: expected a rate from 1 to 1000000000 msg/s, got " + searchStart);
      }
      searchSettings = searchSettings.withStartRate(searchStart);
    }
    Double probeSeconds = command.probeSeconds;
    if (probeSeconds != null) {
      if (!(probeSeconds >= 0.5 && probeSeconds <= 3600)) {
        throw new BadInputException(
            "--probe-seconds: expected seconds from 0.5 to 3600, got " + probeSeconds);
      }
      searchSettings =
          searchSettings.withProbe(
              searchSettings.probeWarmup(), Duration.ofMillis(Math.round(probeSeconds * 1000)));
    }
    // Validate every input before running anything, so a typo in the last file fails in seconds.
    List<Workload> loaded = new ArrayList<>();
    for (Path workload : command.workloads) {
      Workload read = WorkloadReader.read(workload);
      if (target.isPresent() && read.consumerBacklogSizeGB() > 0) {
        // Every probe would build and drain its own backlog: not a latency at a steady rate.
        throw new BadInputException(
            "--slo: "
                + workload
                + " builds a backlog (consumerBacklogSizeGB); a latency-target search needs a steady-state workload");
      }
      if (target.isPresent()
          && target.get().family() == LatencyTarget.Family.END_TO_END
          && read.subscriptionsPerTopic() == 0) {
        // Nothing is received, so no probe has an end-to-end latency to meet the target with:
        // every one would miss it, and the search would end with no rate sustained.
        throw new BadInputException(
            "--slo: "
                + workload
                + " has no consumers (subscriptionsPerTopic: 0), so no end-to-end latency; give a"
                + " publish target or add subscriptions");
      }
      loaded.add(read);
    }
    return new CheckedInput(driverOverrides, target, sweep, searchSettings, loaded);
  }

  /**
   * Checks the driver files, loading each driver's class, and the options that shape the runs:
   * searches, --faults and --repeat.
   */
  CheckedRuns checkDriversAndRuns(CheckedInput input) {
    for (Path driver : command.drivers) {
      String driverClass = DriverLoader.identify(driver).driverClass();
      DriverLoader.instantiate(driver, driverClass);
      command.remote.checkDriver(driver, driverClass);
    }
    List<Workload> loaded = input.workloads();
    boolean slo = input.target().isPresent();
    boolean sweep = input.sweep() != null;
    refuseUnusedSearchOptions(loaded, slo, sweep);
    Optional<FaultPlan> faults = Optional.ofNullable(command.faultPlan).map(FaultPlan::read);
    if (faults.isPresent()) {
      refuseWhatFaultsCannotJoin(loaded, slo, sweep);
    }
    RepeatRuns.Judging judging = null;
    if (command.repeat != null) {
      refuseWhatRepeatCannotJoin(loaded, slo, sweep);
      judging =
          new RepeatRuns.Judging(
              PrimaryMetric.parse(command.primary),
              MarginOption.parse(command.margin == null ? "5%" : command.margin),
              command.includeAll);
    } else if (command.primary != null || command.margin != null || command.includeAll) {
      throw new BadInputException("--primary, --margin and --include-all apply to --repeat runs");
    }
    return new CheckedRuns(faults, judging);
  }

  /**
   * --search-start and --probe-seconds shape searches only: given where no workload searches (a
   * sweep, or fixed rates without --slo), they would be ignored without a word.
   */
  private void refuseUnusedSearchOptions(List<Workload> loaded, boolean slo, boolean sweep) {
    boolean searches = !sweep && (slo || loaded.stream().anyMatch(w -> w.producerRate() == 0));
    if (searches) {
      return;
    }
    String why =
        sweep
            ? "--rates runs each rate once and searches nothing"
            : "no workload searches (that takes producerRate: 0 or --slo)";
    if (command.searchStart != null) {
      throw new BadInputException("--search-start: applies only to searches; " + why);
    }
    if (command.probeSeconds != null) {
      throw new BadInputException("--probe-seconds: applies only to searches; " + why);
    }
  }

  /**
   * A fault plan acts on the cluster of this host during one fixed-rate run: searches and sweeps
   * are many runs, and remote workers keep their clocks (and the cluster's state files) elsewhere.
   */
  private void refuseWhatFaultsCannotJoin(List<Workload> loaded, boolean slo, boolean sweep) {
    refuseManyRunsAndPeaks("--faults", "single fixed-rate runs", "faults", loaded, slo, sweep);
    for (Workload workload : loaded) {
      if (workload.consumerBacklogSizeGB() > 0) {
        // Paused, then draining consumers: no steady level to judge a fault's recovery against.
        throw new BadInputException(
            "--faults: "
                + workload.file()
                + " builds a backlog (consumerBacklogSizeGB); faults need a steady-state workload");
      }
    }
    if (command.remote.remote()) {
      throw new BadInputException(
          "--faults: needs the in-process worker, on the host whose cluster it acts on; drop --workers");
    }
  }

  /**
   * --repeat runs fixed-rate workloads and peak workloads (each round searches, and its stable peak
   * is the round's figure); a latency-target search or a sweep answers with something the summary
   * does not know per run.
   */
  private void refuseWhatRepeatCannotJoin(List<Workload> loaded, boolean slo, boolean sweep) {
    int repeat = command.repeat;
    if (repeat < 2 || repeat > 100) {
      throw new BadInputException("--repeat: expected 2 to 100 runs of each pair, got " + repeat);
    }
    if (slo || sweep) {
      throw new BadInputException(
          "--repeat: applies to fixed-rate and peak runs; drop " + (slo ? "--slo" : "--rates"));
    }
  }

  /**
   * Refuses {@code option} with a search (--slo), a sweep (--rates) or a workload that searches for
   * its peak (producerRate: 0): each is many runs, not the one fixed-rate run the option acts on.
   */
  private static void refuseManyRunsAndPeaks(
      String option,
      String appliesTo,
      String what,
      List<Workload> loaded,
      boolean slo,
      boolean sweep) {
    if (slo || sweep) {
      throw new BadInputException(
          option + ": applies to " + appliesTo + "; drop " + (slo ? "--slo" : "--rates"));
    }
    for (Workload workload : loaded) {
      if (workload.producerRate() == 0) {
        throw new BadInputException(
            option
                + ": "
                + workload.file()
                + " searches for a peak rate (producerRate: 0); "
                + what
                + " need a fixed rate");
      }
    }
  }
}
