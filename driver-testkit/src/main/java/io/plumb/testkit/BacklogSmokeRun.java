package io.plumb.testkit;

import io.plumb.cli.CommandLineRun;
import io.plumb.coordinator.BacklogOutcome;
import io.plumb.coordinator.BacklogPhase;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.input.BadInputException;
import io.plumb.result.PeriodSample;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small backlog workload through the whole engine, in-process: consumers pause while {@value
 * #TARGET} messages of 1 KiB pile up on 3 partitions at 4,000 msg/s, then resume and drain them.
 * What each driver's tests use to check that its consumers pause and resume without losing or
 * repeating a message, and that a driver that cannot keep a backlog refuses the workload.
 *
 * @param run the run, for its backlog outcome
 * @param report its report
 */
public record BacklogSmokeRun(BenchmarkRun run, RunReport report) {

  /** The workload's shape, whose delivery checks every backlog run must pass too. */
  private static final SmokeRun SHAPE =
      new SmokeRun(3, 1, 1, 1, 4_000, Duration.ofSeconds(1), 1024);

  /** The backlog the workload asks for: 5 MiB of 1 KiB messages. */
  public static final long TARGET = 5_120;

  private static final String WORKLOAD =
      """
      name: backlog-smoke
      topics: 1
      partitionsPerTopic: 3
      messageSize: 1024
      subscriptionsPerTopic: 1
      consumerPerSubscription: 1
      producersPerTopic: 1
      producerRate: 4000
      consumerBacklogSizeGB: 0.0048828125
      testDurationSeconds: 1
      warmupDurationSeconds: 1
      """;

  /** Writes the workload ({@code backlog.yaml}) into {@code dir}. */
  public static Path writeWorkload(Path dir) {
    try {
      Files.createDirectories(dir);
      return Files.writeString(dir.resolve("backlog.yaml"), WORKLOAD);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Runs the workload with {@code driverFile}, half-second periods, and {@code options}' other
   * settings (overrides, kept topics); {@code listener} hears every period.
   */
  public static BacklogSmokeRun run(
      Path driverFile, Path dir, RunOptions options, RunListener listener) {
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(writeWorkload(dir)),
            driverFile,
            new LocalWorker(),
            options.withPeriod(Duration.ofMillis(500)),
            listener);
    return new BacklogSmokeRun(run, run.execute());
  }

  /** The same with the default options and nothing listening. */
  public static BacklogSmokeRun run(Path driverFile, Path dir) {
    return run(driverFile, dir, RunOptions.defaults(), RunListener.SILENT);
  }

  /** OMB's backlog workload, 10 GB in 16 partitions, as shipped; run from a driver's module. */
  public static final Path OMB_10_GB_BACKLOG =
      Path.of("../workloads/1-topic-16-partitions-1kb-1p1c-backlog-10gb.yaml");

  /**
   * The one line {@code bin/benchmark} refuses {@link #OMB_10_GB_BACKLOG} with on {@code
   * driverFile}, whose topics cannot keep the backlog (before any topic exists, so it takes a
   * second); fails if the run was not refused with status 2.
   */
  public static String refusalOfTheOmbBacklog(Path driverFile, Path dir) {
    CommandLineRun run =
        CommandLineRun.run(
            "-d", driverFile.toString(), "-o", dir.toString(), OMB_10_GB_BACKLOG.toString());
    List<String> lines = run.errorLines();
    if (run.status() != 2 || lines.size() != 1) {
      throw new AssertionError(
          "expected one line and status 2, got " + run.status() + ": " + run.err() + run.out());
    }
    return lines.get(0);
  }

  /**
   * What is wrong with the run as a backlog test: empty when it passes {@link
   * SmokeRun#deliveryProblems}' checks (complete, every message acknowledged and received exactly
   * once, none in flight, no errors) and the backlog reached {@value #TARGET} and drained.
   */
  public List<String> problems() {
    List<String> problems = new ArrayList<>(SHAPE.deliveryProblems(report));
    BacklogOutcome backlog = run.backlogOutcome().orElse(null);
    if (backlog == null) {
      problems.add("no backlog phase");
      return problems;
    }
    if (backlog.targetMessages() != TARGET) {
      problems.add("target " + backlog.targetMessages() + ", not " + TARGET);
    }
    if (backlog.backlogAtDrainStart() < TARGET || !backlog.completed()) {
      problems.add("not built to the target and drained: " + backlog);
    }
    // At 4,000 msg/s the backlog of consumers that did not pause stays near zero: reaching 5,120
    // in more than 0.3 s proves the pause (the build can beat 1.28 s when producers catch up on a
    // schedule they fell behind).
    if (backlog.buildSeconds() <= 0.3) {
      problems.add("built too fast for paused consumers: " + backlog);
    }
    // The backlog shrank while producers went on. Not a rate: on a busy host producers fall
    // behind their schedule during the drain, and the consumers then need not outrun them.
    if (backlog.drainNetRateMsgPerSec() <= 0) {
      problems.add("the backlog did not shrink: " + backlog);
    }
    long peak = report.samples().stream().mapToLong(PeriodSample::backlog).max().orElse(0);
    if (peak < TARGET - 120) {
      problems.add("peak backlog in the periods " + peak);
    }
    return problems;
  }

  /**
   * The one line a driver that cannot keep a backlog refuses the workload with, for {@code
   * workload} and a driver named {@code driverName} that says {@code why}.
   */
  public static String refusal(Path workload, String driverName, String why) {
    return BacklogPhase.refusal(workload, driverName, why);
  }

  /**
   * A driver that cannot keep a backlog refuses the workload, run with {@code driverFile} and
   * {@code overrides}, before any load: with {@link #refusal}{@code (workload, driverName, why)},
   * on one line.
   *
   * @throws AssertionError otherwise
   */
  public static void assertRefused(
      Path driverFile, Map<String, String> overrides, Path dir, String driverName, String why) {
    Path workload = writeWorkload(dir);
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            driverFile,
            new LocalWorker(),
            RunOptions.defaults().withDriverOverrides(overrides),
            RunListener.SILENT);
    String refused;
    try {
      run.execute();
      throw new AssertionError(driverFile + " ran the backlog workload");
    } catch (BadInputException e) {
      refused = e.getMessage();
    }
    String expected = refusal(workload, driverName, why);
    if (!expected.equals(refused)) {
      throw new AssertionError("refused with\n  " + refused + "\nnot\n  " + expected);
    }
  }
}
