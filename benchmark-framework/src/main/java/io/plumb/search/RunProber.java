package io.plumb.search;

import io.plumb.bottleneck.ThreadEvidence;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.PeriodSample;
import io.plumb.result.RunReport;
import io.plumb.result.WindowSummary;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.ProducerThreadTimes;
import io.plumb.worker.Worker;
import io.plumb.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * Probes by running the workload at a fixed rate for the probe's warm-up and measured time, as a
 * complete run of its own (own topics, producers and consumers), so every probe starts with an
 * empty backlog and no probe's backlog or latency leaks into the next.
 */
public final class RunProber implements Prober {
  /** Rate samples per probe, so the backlog trend has several points. */
  private static final int SAMPLES_PER_PROBE = 6;

  private final Workload workload;
  private final Path driver;
  private final Supplier<Worker> workers;
  private final RunOptions options;
  private final Optional<LatencyTarget> target;
  private volatile BenchmarkRun current;
  // The last probe's broker facts: every probe runs the same driver file, so the same windows.
  private volatile Map<String, String> lastFacts = Map.of();
  private volatile String abortReason;

  public RunProber(
      Workload workload,
      Path driver,
      Supplier<Worker> workers,
      RunOptions options,
      Optional<LatencyTarget> target) {
    this.workload = workload;
    this.driver = driver;
    this.workers = workers;
    this.options = options;
    this.target = target;
  }

  /** Stops the probe under way; later probes report the reason without running. */
  public void abort(String reason) {
    abortReason = reason;
    BenchmarkRun run = current;
    if (run != null) {
      run.abort(reason);
    }
  }

  @Override
  public ProbeOutcome probe(double rate, SearchSettings settings) {
    if (abortReason != null) {
      return failed(rate, abortReason);
    }
    Duration period =
        Duration.ofMillis(Math.max(250, settings.probeDuration().toMillis() / SAMPLES_PER_PROBE));
    BenchmarkRun run =
        new BenchmarkRun(
            workload.at(rate, settings.probeWarmup(), settings.probeDuration()),
            driver,
            workers.get(),
            options.withPeriod(period),
            RunListener.SILENT);
    current = run;
    long start = System.nanoTime();
    RunReport report;
    try {
      report = run.execute();
    } finally {
      current = null;
    }
    lastFacts = report.brokerFacts();
    return outcome(
        rate,
        report,
        Math.max(0, run.scheduleLagAtEnd()),
        (System.nanoTime() - start) / 1e9,
        target);
  }

  @Override
  public Optional<String> clientWindows() {
    return WindowSummary.describe(lastFacts);
  }

  /** What a run at {@code rate} measured, reduced to what the search judges. */
  public static ProbeOutcome outcome(
      double rate,
      RunReport report,
      long lagAtEnd,
      double wallSeconds,
      Optional<LatencyTarget> target) {
    List<PeriodSample> samples = report.samples();
    double seconds = report.measuredSeconds();
    int subscriptions = report.workload().subscriptionsPerTopic();
    // Index 0 is the measured phase's start: unacknowledged messages are counted from it, so 0
    // there, and the backlog then is its value after the first period less what that period added.
    double[] times = new double[samples.size() + 1];
    double[] backlog = new double[samples.size() + 1];
    double[] unacknowledged = new double[samples.size() + 1];
    if (!samples.isEmpty()) {
      long added = samples.get(0).counts().backlogAdded(subscriptions);
      backlog[0] = Math.max(0, samples.get(0).backlog() - added);
    }
    double t = 0;
    double outstanding = 0;
    long acknowledged = 0;
    long failedSends = 0;
    long consumerErrors = 0;
    long nanosInSend = 0;
    ProducerThreadTimes threads = ProducerThreadTimes.NONE;
    for (int i = 0; i < samples.size(); i++) {
      PeriodStats stats = samples.get(i).counts();
      nanosInSend += stats.producerBlockedNanos();
      threads = threads.plus(stats.producerThreads());
      t += samples.get(i).seconds();
      outstanding += stats.sent() - stats.acknowledged() - stats.failed();
      times[i + 1] = t;
      backlog[i + 1] = samples.get(i).backlog();
      unacknowledged[i + 1] = outstanding;
      acknowledged += stats.acknowledged();
      failedSends += stats.failed();
      consumerErrors += stats.consumerErrors();
    }
    long latency = -1;
    if (target.isPresent()) {
      Histogram histogram =
          target.get().family() == LatencyTarget.Family.PUBLISH
              ? report.measured().publishLatency()
              : report.measured().endToEndLatency();
      latency =
          histogram.getTotalCount() == 0
              ? -1
              : histogram.getValueAtPercentile(target.get().percentile());
    }
    return new ProbeOutcome(
        rate,
        seconds,
        report.publishRate(),
        seconds > 0 ? acknowledged / seconds : 0,
        report.consumeRate(),
        subscriptions,
        trend(times, unacknowledged),
        trend(times, backlog),
        samples.isEmpty() ? 0 : samples.get(samples.size() - 1).backlog(),
        lagAtEnd,
        report.measured().sendDelay().getTotalCount() == 0
            ? 0
            : report.measured().sendDelay().getValueAtPercentile(50),
        report.measured().sendDelay().getTotalCount() == 0
            ? 0
            : report.measured().sendDelay().getValueAtPercentile(99),
        latency,
        failedSends,
        consumerErrors,
        report.counters().lost() + report.counters().inFlight(),
        ThreadEvidence.of(threads, nanosInSend),
        report.generatorBoundReasons(),
        report.incompleteReason(),
        wallSeconds,
        report.resources().workerShareOfHost(),
        report.resources().stealShare(),
        LatencySpread.of(samples));
  }

  /**
   * Theil-Sen over the periods' ends. A run measured in one period (a sweep step or a measurement
   * as short as its period) has one end and so had no trend at all: slope 0, sustained however
   * little the broker acknowledged. Its phase's start is then the other point. With two periods or
   * more the start is left out: a phase measured without warm-up starts with nothing in flight, and
   * the climb to a steady count in flight would read as growth.
   */
  private static double trend(double[] times, double[] values) {
    int from = times.length == 2 ? 0 : 1;
    return Trend.slope(
        Arrays.copyOfRange(times, from, times.length),
        Arrays.copyOfRange(values, from, values.length));
  }

  private ProbeOutcome failed(double rate, String reason) {
    return new ProbeOutcome(
        rate,
        0,
        0,
        0,
        0,
        workload.subscriptionsPerTopic(),
        0,
        0,
        0,
        0,
        0,
        0,
        -1,
        0,
        0,
        0,
        ThreadEvidence.NONE,
        List.of(),
        reason,
        0,
        Double.NaN,
        Double.NaN,
        LatencySpread.NONE);
  }
}
