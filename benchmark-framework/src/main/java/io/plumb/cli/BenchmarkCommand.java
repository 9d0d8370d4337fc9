package io.plumb.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunOptions;
import io.plumb.fault.FaultFailures;
import io.plumb.input.UnreachableBrokerException;
import io.plumb.remote.DistributedWorkers;
import io.plumb.result.ResultJson;
import io.plumb.result.ResultWriter;
import io.plumb.result.RunReport;
import io.plumb.search.LatencyTarget;
import io.plumb.search.SearchSettings;
import io.plumb.worker.Worker;
import io.plumb.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bin/benchmark}: runs every driver against every workload and writes one result each. */
@Command(
    name = "benchmark",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Runs each workload against each driver: open-loop load at the workload's producerRate, latency measured from the",
      "intended send time (no coordinated omission), full HdrHistogram distributions to p99.9999 and max.",
      "",
      "Writes one JSON result per workload and driver and prints a summary. Exit status: 0 success, 1 a run failed or",
      "ended incomplete, or a search found no rate that held for the full duration (either result is still written),",
      "2 bad input, 3 a broker not answering, 4 a fault of --faults could not be applied or undone (the result is still",
      "written, marked 'faultFailure'), 130 interrupted by Ctrl-C (the partial result is still written).",
      "",
      "producerRate: 0 searches for the stable peak rate (grow x2 from --search-start, bisect to 5%%, recheck the answer),",
      "then measures once at the rate found for the workload's duration; --slo searches for the highest rate meeting a",
      "latency target; --rates runs the workload once per rate and writes a summary. Search steps are recorded under",
      "'search' in the result.",
    },
    footer = {
      "",
      "Examples:",
      "  # one run: Kafka, 16 partitions of 1 KB messages",
      "  bin/benchmark --drivers driver-kafka/kafka.yaml \\",
      "      workloads/1-topic-16-partitions-1kb.yaml",
      "",
      "  # what fsync per message costs: two driver files, one result each",
      "  bin/benchmark -d driver-kafka/kafka.yaml,driver-kafka/kafka-sync.yaml \\",
      "      workloads/quick-1kb-10k.yaml",
      "",
      "  # another cluster, without editing the driver file",
      "  bin/benchmark -d driver-kafka/kafka.yaml \\",
      "      --driver-set bootstrap.servers=broker1:9092 workloads/*.yaml",
      "",
      "  # what this host can push, with no broker at all",
      "  bin/benchmark -d benchmark-framework/loopback.yaml \\",
      "      workloads/loopback-capacity.yaml",
      "",
      "  # producerRate: 0 searches for the stable peak rate",
      "  bin/benchmark -d driver-kafka/kafka.yaml workloads/peak-1kb.yaml",
      "",
      "  # the highest rate that meets a latency target",
      "  bin/benchmark -d driver-kafka/kafka.yaml \\",
      "      --slo 'p99 end-to-end <= 10ms' workloads/peak-1kb.yaml",
      "",
      "  # what a leader's death costs on a 3-node cluster",
      "  bin/benchmark -d driver-kafka/kafka-replicated.yaml \\",
      "      --faults faults/kill-leader.yaml workloads/faults-1kb-2k.yaml",
      "",
      "  # five interleaved runs of each file, a summary with intervals,",
      "  # then B against A (see bin/benchmark compare --help)",
      "  bin/benchmark --repeat 5 -o results/fsync \\",
      "      -d driver-kafka/kafka.yaml,driver-kafka/kafka-sync.yaml \\",
      "      workloads/quick-1kb-10k.yaml",
      "",
      "  # one run per rate, and a summary",
      "  bin/benchmark -d driver-kafka/kafka.yaml --rates 10k,50k,100k,200k \\",
      "      workloads/quick-1kb-10k.yaml",
      "",
      "  # charts and tables of results (see bin/benchmark report --help)",
      "  bin/benchmark report results/*.json -o report.html",
      "",
      "  # load from two worker hosts (see bin/benchmark-worker --help)",
      "  bin/benchmark --workers http://10.0.0.1:8080,http://10.0.0.2:8080 \\",
      "      --token-file worker.token -d driver-kafka/kafka.yaml \\",
      "      --driver-set bootstrap.servers=10.0.0.9:9092 \\",
      "      workloads/1-topic-16-partitions-1kb.yaml",
    })
public final class BenchmarkCommand implements Callable<Integer> {
  @Option(
      names = {"-d", "--drivers"},
      required = true,
      split = ",",
      paramLabel = "FILE",
      description =
          "Driver YAML file(s), comma-separated; every workload runs against each. Example: driver-kafka/kafka.yaml")
  List<Path> drivers;

  @Parameters(
      arity = "1..*",
      paramLabel = "WORKLOAD",
      description = "Workload YAML file(s), in OpenMessaging Benchmark's format.")
  List<Path> workloads;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "PATH",
      description =
          "Where results go: a directory (default: results/), or a file ending in .json when there is exactly one run.")
  Path output;

  @Option(
      names = "--driver-set",
      paramLabel = "KEY=VALUE",
      description =
          "Overrides a driver setting without editing its file, e.g. --driver-set bootstrap.servers=10.0.0.5:9092. Repeatable, each key once.")
  List<String> driverSettings = new ArrayList<>();

  @Option(
      names = "--period",
      paramLabel = "SECONDS",
      description =
          "Seconds between progress lines and rate samples (default: a tenth of the test, 1 to 10 s).")
  Double periodSeconds;

  @Option(
      names = "--keep-topics",
      description = "Leave the run's topics on the broker (default: delete them at the end).")
  boolean keepTopics;

  @Option(
      names = "--pacing",
      paramLabel = "MODE",
      description =
          "How producer threads wait between sends. efficient (default): wake 2,000 times a second in all and send what fell due, under a tenth of a core at 10k msg/s; below ~50k msg/s per thread sends leave up to 0.5-1 ms after their intended time. precise: spin before each send, on time to microseconds at any rate, ~0.6 core at 10k msg/s. Either way latency counts from the intended time and the send delay is reported.")
  String pacing;

  @Mixin RemoteWorkerOptions remote = new RemoteWorkerOptions();

  @Option(
      names = "--slo",
      paramLabel = "TARGET",
      description =
          "Search for the highest rate whose latency meets TARGET: 'pPERCENTILE FAMILY <= LIMIT' with FAMILY publish or end-to-end and LIMIT in us, ms or s, e.g. 'p99 end-to-end <= 10ms'. A workload's non-zero producerRate caps the search.")
  String slo;

  @Option(
      names = "--rates",
      paramLabel = "LIST",
      description =
          "Run each workload once per rate (msg/s, k and M suffixes), e.g. 10k,50k,100k,200k,500k,1M; one result per rate plus a summary.")
  String rates;

  @Option(
      names = "--search-start",
      paramLabel = "RATE",
      description = "First rate a search probes, msg/s (default 1000).")
  Double searchStart;

  @Option(
      names = "--probe-seconds",
      paramLabel = "SECONDS",
      description =
          "Measured length of each search probe (default 15), after 1 s of warm-up. Probes must outlast what the broker absorbs in memory (page cache): shorter ones find rates a long run cannot hold.")
  Double probeSeconds;

  @Option(
      names = "--faults",
      paramLabel = "PLAN",
      description =
          "Applies a fault plan to the local cluster (deploy/local/<broker>.sh start --nodes 3) during the measured phase: kill, freeze, isolate, partition or restart the leader or a node at set times, e.g. faults/kill-leader.yaml. Each fault's unavailability, recovery and acknowledged loss are reported.")
  Path faultPlan;

  @Option(
      names = "--repeat",
      paramLabel = "N",
      description =
          "Runs every workload and driver pair N times (2 to 100), interleaved (A B, B A, ...), one result each, then prints and writes a summary: estimate and interval of throughput, latency percentiles and CPU across the runs; with two pairs or more, each against the first, as bin/benchmark compare does. A peak workload (producerRate: 0) searches in every round, and its stable peak is compared.")
  Integer repeat;

  @Option(
      names = "--primary",
      paramLabel = "METRIC",
      description =
          "With --repeat: the metric of the headline verdict (see bin/benchmark compare --help).")
  String primary;

  @Option(
      names = "--margin",
      paramLabel = "PERCENT",
      description =
          "With --repeat: the smallest difference that matters (default 5%%, see compare --help).")
  String margin;

  @Option(
      names = "--include-all",
      description =
          "With --repeat: count incomplete, lossy and generator-bound runs too (left out by default).")
  boolean includeAll;

  private final PrintStream out;
  private final CurrentRun current = new CurrentRun();
  private final CountDownLatch finished = new CountDownLatch(1);

  /** 128 + SIGINT, as shells report a program that Ctrl-C ended. */
  static final int INTERRUPTED_STATUS = 130;

  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final List<Path> written = new ArrayList<>();

  public BenchmarkCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws IOException {
    BenchmarkOptionChecks checks = new BenchmarkOptionChecks(this);
    BenchmarkOptionChecks.CheckedInput input = checks.checkOptionsAndWorkloads();
    Optional<LatencyTarget> target = input.target();
    List<Double> sweep = input.sweep();
    SearchSettings searchSettings = input.searchSettings();
    List<Workload> loaded = input.workloads();
    // Before any driver class loads (ClientLog says why), so after the checks that load none.
    Optional<Path> clientLog = ClientLog.sendBeside(output);
    clientLog.ifPresent(log -> out.println("Client logs  " + log));
    BenchmarkOptionChecks.CheckedRuns runs = checks.checkDriversAndRuns(input);
    ResultPaths paths =
        new ResultPaths(
            output,
            drivers.size()
                * loaded.size()
                * (sweep == null ? 1 : sweep.size() + 1)
                * (repeat == null ? 1 : repeat + 1));
    RunOptions options =
        RunOptions.defaults()
            .withDriverOverrides(input.driverOverrides())
            .withKeepTopics(keepTopics);
    if (periodSeconds != null) {
      options = options.withPeriod(Duration.ofMillis(Math.round(periodSeconds * 1000)));
    }
    if (runs.faults().isPresent()) {
      options = options.withFaultPlan(runs.faults().get());
    }
    if (pacing != null) {
      options = options.withPacing(PacingOption.parse(pacing));
    }
    Interrupts.install(interrupted, current, finished);
    int status = 0;
    try {
      if (repeat != null) {
        List<RepeatRuns.Pair> pairs = new ArrayList<>();
        for (Workload workload : loaded) {
          for (Path driver : drivers) {
            pairs.add(new RepeatRuns.Pair(workload, driver));
          }
        }
        final RunOptions repeated = options;
        status =
            new RepeatRuns(out, repeat, output, interrupted::get, runs.judging())
                .run(
                    pairs,
                    (workload, driver, name) ->
                        repeatRound(
                            workload,
                            driver,
                            repeated,
                            searchSettings,
                            paths.pathFor(workload.name(), name)),
                    written);
        return exitStatus(status);
      }
      for (Path driver : drivers) {
        for (Workload workload : loaded) {
          if (sweep != null) {
            status =
                Math.max(
                    status,
                    new SweepRuns(setup(options), sweep).run(workload, driver, paths, written));
          } else if (target.isPresent() || workload.producerRate() == 0) {
            status =
                Math.max(
                    status,
                    new SearchRuns(setup(options), searchSettings, target)
                        .run(workload, driver, paths, written));
          } else {
            status = Math.max(status, runOne(workload, driver, options, paths));
          }
        }
      }
    } catch (UnreachableBrokerException e) {
      // The client library's own account of the failed connection is in its log: name it.
      throw clientLog
          .map(log -> new UnreachableBrokerException(e.getMessage() + " (client log: " + log + ")"))
          .orElse(e);
    } finally {
      ConsoleReporter.allWritten(out, written);
      finished.countDown();
    }
    return exitStatus(status);
  }

  /**
   * After Ctrl-C always {@value #INTERRUPTED_STATUS}, as the JVM itself exits on SIGINT: otherwise
   * the status would depend on whether this thread or the JVM's signal handling exits first.
   */
  private int exitStatus(int status) {
    return interrupted.get() ? INTERRUPTED_STATUS : status;
  }

  private RunSetup setup(RunOptions options) {
    return new RunSetup(out, options, current, remote::connect);
  }

  /** One run's outcome: exit status, where its result went, and the result itself. */
  record Written(int status, Path path, ObjectNode json) {}

  private int runOne(Workload workload, Path driver, RunOptions options, ResultPaths paths)
      throws IOException {
    return runAndWrite(workload, driver, options, null, paths).status();
  }

  private Written runAndWrite(Workload workload, Path driver, RunOptions options, Path target)
      throws IOException {
    return runAndWrite(workload, driver, options, target, null);
  }

  /** One round of --repeat: a peak workload searches, then measures at the rate it found. */
  private Written repeatRound(
      Workload workload, Path driver, RunOptions options, SearchSettings search, Path result)
      throws IOException {
    if (workload.producerRate() > 0) {
      return runAndWrite(workload, driver, options, result);
    }
    return new SearchRuns(setup(options), search, Optional.empty())
        .run(workload, driver, null, result, written);
  }

  /** Runs once and writes the result to {@code target}, or where {@code paths} puts it. */
  private Written runAndWrite(
      Workload workload, Path driver, RunOptions options, Path fixedTarget, ResultPaths paths)
      throws IOException {
    out.printf("%n=== %s with %s%n", workload.file(), driver);
    Worker worker = remote.connect();
    BenchmarkRun run =
        new BenchmarkRun(
            workload,
            driver,
            worker,
            options,
            ConsoleReporter.forWorker(out, workload.messageSize(), worker));
    if (worker instanceof DistributedWorkers ensemble) {
      ensemble.onWorkerLost(run::abort);
    }
    RunReport report = current.execute(run);
    Path target =
        fixedTarget != null ? fixedTarget : paths.pathFor(workload.name(), report.driverName());
    ObjectNode json = ResultJson.render(report);
    WorkersJson.add(json, worker, report);
    BacklogJson.add(json, run);
    ResultWriter.write(json, target);
    written.add(target);
    ConsoleReporter.written(out, target);
    Optional<String> faultFailure = FaultFailures.reason(report.faults());
    faultFailure.ifPresent(reason -> out.println("error: " + reason));
    // A run that stopped early says so first: its faults not yet due were never applied.
    int status = !report.complete() ? 1 : faultFailure.isPresent() ? FaultFailures.EXIT_STATUS : 0;
    return new Written(status, target, json);
  }
}
