package io.plumb.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.plumb.input.BadInputException;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.Worker;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import io.plumb.worker.WorkerSpecs.LoadSpec;
import io.plumb.worker.WorkerSpecs.MessageSpec;
import io.plumb.worker.WorkerSpecs.Totals;
import io.plumb.workload.Payloads;
import io.plumb.workload.Workload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One workload against one driver: set up, check every subscription receives, warm up, measure,
 * drain, tear down — and always produce a report, marked incomplete when something failed or the
 * user interrupted, so nothing measured is lost.
 */
public final class BenchmarkRun {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";

  private final Workload workload;
  private final Path driverFile;
  private final Worker worker;
  private final RunOptions options;
  private final RunListener listener;
  private final CountDownLatch aborted = new CountDownLatch(1);
  private volatile String abortReason;
  private final List<String> errors = new ArrayList<>();
  private volatile BacklogOutcome backlogOutcome;

  public BenchmarkRun(
      Workload workload, Path driverFile, Worker worker, RunOptions options, RunListener listener) {
    this.workload = workload;
    this.driverFile = driverFile;
    this.worker = worker;
    this.options = options;
    this.listener = listener;
  }

  /** Stops the run at the next opportunity; the report is marked incomplete with {@code reason}. */
  public void abort(String reason) {
    abortReason = reason;
    aborted.countDown();
  }

  /**
   * Runs to the end. Bad input found before anything was measured is thrown as {@link
   * BadInputException}; every other failure ends in an incomplete report.
   */
  public RunReport execute() {
    Instant start = Instant.now();
    SecureRandom random = new SecureRandom();
    int runId = random.nextInt();
    StringBuilder tag = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      tag.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
    }
    Measurement measurement = new Measurement(workload.subscriptionsPerTopic());
    String driverName = driverFile.getFileName().toString();
    Map<String, String> brokerFacts = Map.of();
    String failure = null;
    RunPlan plan = null;
    boolean loadStarted = false;
    DeliveryBalance.DrainOutcome drainOutcome = DeliveryBalance.DrainOutcome.NOT_DRAINED;
    double sendShare = 0;
    try {
      checkSupported();
      listener.step("initialising driver " + driverFile);
      DriverInfo info =
          worker.initializeDriver(
              new DriverSetup(
                  driverFile.toString(), readText(driverFile), options.driverOverrides()),
              runId);
      driverName = driverNameFrom(driverFile, info);
      brokerFacts = info.brokerFacts();
      plan = RunPlan.of(workload, info.topicNamePrefix(), tag.toString());
      listener.step(
          String.format(
              "creating %d topic(s) of %d partition(s)",
              plan.topics().size(), workload.partitionsPerTopic()));
      // Read again once topics exist: replication is a fact of real topics, not of the file.
      brokerFacts = worker.createTopics(plan.topics());
      if (!plan.consumers().isEmpty()) {
        listener.step("creating " + plan.consumers().size() + " consumer(s)");
        worker.createConsumers(plan.consumers());
      }
      listener.step("creating " + plan.producers().size() + " producer(s)");
      worker.createProducers(
          plan.producers(),
          new MessageSpec(
              workload.messageSize(),
              workload.keyDistributor(),
              Payloads.forWorkload(workload, runId)));
      awaitEverySubscription(plan);
      if (workload.consumerBacklogSizeGB() > 0) {
        checkConsumersPause(driverName);
      }
      worker.takePeriod(); // drops what the probes recorded
      listener.step(
          String.format(
              "load: %,.0f msg/s over %d producer(s), %d bytes each",
              workload.producerRate(), plan.producers().size(), workload.messageSize()));
      worker.startLoad(new LoadSpec(plan.ratePerProducer(), Duration.ofMillis(20).toNanos()));
      loadStarted = true;
      Duration period = options.periodFor(workload.testDuration());
      runPhase(Phase.WARMUP, workload.warmupDuration(), period, measurement);
      worker.startMeasuring();
      if (workload.consumerBacklogSizeGB() > 0) {
        buildAndDrainBacklog(plan, period, measurement);
      }
      if (!workload.consumerOnly()) {
        runPhase(Phase.MEASURE, workload.testDuration(), period, measurement);
      }
    } catch (BadInputException e) {
      if (loadStarted) {
        failure = e.getMessage();
      } else {
        closeQuietly(plan);
        throw e;
      }
    } catch (RuntimeException e) {
      failure = e.getMessage() == null ? e.toString() : e.getMessage();
    }
    if (failure == null && abortReason != null) {
      failure = abortReason;
    }
    if (loadStarted) {
      worker.stopLoad();
      if (failure == null) {
        drainOutcome = drain(plan, measurement);
      }
    }
    Counters counters = counters(plan, measurement, drainOutcome);
    errors.addAll(worker.firstErrors());
    closeQuietly(plan);
    double measured = measurement.measuredSeconds();
    sendShare =
        measured > 0
            ? Math.min(
                1,
                measurement.measuredNanosInSend() / 1e9 / measured / Math.max(1, threadsUsed(plan)))
            : 0;
    List<String> verdict =
        measured > 0 && !workload.consumerOnly()
            ? GeneratorVerdict.judge(
                    workload.producerRate(),
                    measurement.measuredSent(),
                    measured,
                    measurement.measured().sendDelay().getValueAtPercentile(99),
                    measurement.measured().publishLatency().getValueAtPercentile(99),
                    sendShare)
                .reasons()
            : List.of();
    RunReport report =
        new RunReport(
            workload,
            driverName,
            workload.producerRate(),
            workload.warmupDuration().toNanos() / 1e9,
            measured,
            List.copyOf(measurement.samples()),
            measurement.measured(),
            counters,
            verdict,
            sendShare,
            failure,
            List.copyOf(errors),
            workloadConfig(),
            driverConfig(),
            brokerFacts,
            Environment.describe(),
            start,
            Instant.now());
    listener.finished(report);
    return report;
  }

  private void checkSupported() {
    if (workload.producerRate() == 0) {
      // The command line turns producerRate 0 into a peak search (io.plumb.search), whose probes
      // and final measurement each run at a fixed rate.
      throw new BadInputException(
          workload.file()
              + ": field 'producerRate': 0 asks for a peak search, which runs a series of fixed-rate runs; give a rate in messages per second to run one");
    }
  }

  /** How the backlog build and drain went; empty for workloads without a backlog. */
  public java.util.Optional<BacklogOutcome> backlogOutcome() {
    return java.util.Optional.ofNullable(backlogOutcome);
  }

  /** A backlog workload on a driver that cannot pause consumers fails before any load. */
  private void checkConsumersPause(String driverName) {
    try {
      worker.pauseConsumers();
      worker.resumeConsumers();
    } catch (UnsupportedOperationException e) {
      throw new BadInputException(
          workload.file()
              + ": field 'consumerBacklogSizeGB': driver "
              + driverName
              + " cannot pause consumers, which building a backlog needs ("
              + e.getMessage()
              + "); use 0 or another driver");
    }
  }

  /**
   * OMB's backlog test: consumers pause while producers keep their rate until the backlog (messages
   * acknowledged but not received, summed over subscriptions) reaches {@code
   * consumerBacklogSizeGB}; then consumers resume and drain it down to {@code (1 -
   * backlogDrainRatio)} of the target (at least 1,000 messages). Both steps have deadlines, so a
   * backlog that cannot be built or drained ends the run with a reason instead of hanging. A
   * consumer-only workload stops the producers before the drain.
   */
  private void buildAndDrainBacklog(RunPlan plan, Duration period, Measurement measurement) {
    long target = workload.backlogMessages();
    double fillRate = workload.producerRate() * workload.subscriptionsPerTopic();
    Duration buildLimit = Duration.ofSeconds(30 + (long) Math.ceil(2 * target / fillRate));
    listener.step(
        String.format(
            "backlog: consumers paused until %,d messages (%.3f GB) wait, at most %d s",
            target, workload.consumerBacklogSizeGB(), buildLimit.toSeconds()));
    worker.pauseConsumers();
    PhaseTally build =
        runPhase(
            Phase.MEASURE, buildLimit, period, measurement, plan, backlog -> backlog >= target);
    long floor = Math.max(1000, (long) ((1 - workload.backlogDrainRatio()) * target));
    if (!build.conditionMet()) {
      backlogOutcome =
          new BacklogOutcome(
              target,
              workload.consumerBacklogSizeGB(),
              build.seconds(),
              build.sent() / build.seconds(),
              build.lastBacklog(),
              floor,
              0,
              0,
              0,
              workload.consumerOnly(),
              false);
      worker.resumeConsumers();
      throw new RunException(
          String.format(
              "backlog build: %,d of %,d messages after %d s; producers could not build the backlog in time",
              build.lastBacklog(), target, buildLimit.toSeconds()));
    }
    if (workload.consumerOnly()) {
      listener.step("backlog built: producers stop, consumers drain it");
      worker.stopLoad();
    }
    Duration drainLimit = Duration.ofSeconds(60 + (long) Math.ceil(5 * build.seconds()));
    listener.step(
        String.format(
            "backlog built in %.1f s: consumers resume and drain it to %,d messages, at most %d s",
            build.seconds(), floor, drainLimit.toSeconds()));
    worker.resumeConsumers();
    PhaseTally drain =
        runPhase(Phase.MEASURE, drainLimit, period, measurement, plan, backlog -> backlog <= floor);
    double drainSeconds = Math.max(drain.seconds(), 1e-9);
    backlogOutcome =
        new BacklogOutcome(
            target,
            workload.consumerBacklogSizeGB(),
            build.seconds(),
            build.sent() / build.seconds(),
            build.lastBacklog(),
            floor,
            drain.seconds(),
            drain.received() / drainSeconds,
            (build.lastBacklog() - drain.lastBacklog()) / drainSeconds,
            workload.consumerOnly(),
            drain.conditionMet());
    if (!drain.conditionMet()) {
      throw new RunException(
          String.format(
              "backlog drain: %,d messages still waiting after %d s (drain target %,d); consumers could not drain the backlog in time",
              drain.lastBacklog(), drainLimit.toSeconds(), floor));
    }
    listener.step(
        String.format(
            "backlog drained in %.1f s at %,.0f msg/s received",
            drain.seconds(), drain.received() / drainSeconds));
  }

  /** What one phase (or part of one) measured, for the backlog figures. */
  private record PhaseTally(
      double seconds, long sent, long received, long lastBacklog, boolean conditionMet) {}

  private void awaitEverySubscription(RunPlan plan) {
    if (plan.topicOfSubscription().isEmpty()) {
      return;
    }
    listener.step(
        "checking that every subscription receives (up to "
            + options.readinessTimeout().toSeconds()
            + " s)");
    long deadline = System.nanoTime() + options.readinessTimeout().toNanos();
    long nextProbe = 0;
    while (true) {
      if (System.nanoTime() >= nextProbe) {
        worker.sendProbes();
        nextProbe = System.nanoTime() + 500_000_000L;
      }
      Map<String, Long> probes = worker.probesReceived();
      List<String> silent =
          plan.topicOfSubscription().keySet().stream()
              .filter(key -> probes.getOrDefault(key, 0L) == 0)
              .toList();
      if (silent.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new RunException(
            silent.size()
                + " subscription(s) received nothing within "
                + options.readinessTimeout().toSeconds()
                + " s (first: "
                + silent.get(0)
                + "); check that consumers can read what producers write (offsets, bindings, subjects)");
      }
      if (waitOrAbort(Duration.ofMillis(50))) {
        throw new RunException(abortReason);
      }
    }
  }

  private void runPhase(Phase phase, Duration length, Duration period, Measurement measurement) {
    if (length.isZero()) {
      return;
    }
    listener.step(phase.label() + " for " + seconds(length) + " s");
    runPhase(phase, length, period, measurement, null, null);
  }

  /**
   * Runs periods until {@code length} has passed or, when {@code until} is given, until it holds
   * for the backlog (polled every 100 ms between periods: acknowledged messages not yet received).
   */
  private PhaseTally runPhase(
      Phase phase,
      Duration length,
      Duration period,
      Measurement measurement,
      RunPlan plan,
      java.util.function.LongPredicate until) {
    long phaseStart = System.nanoTime();
    long phaseEnd = phaseStart + length.toNanos();
    long periodStart = phaseStart;
    long sent = 0;
    long received = 0;
    long lastBacklog = 0;
    boolean met = false;
    while (periodStart < phaseEnd && !met) {
      long periodEnd = Math.min(phaseEnd, periodStart + period.toNanos());
      boolean stop;
      if (until == null) {
        stop = waitOrAbort(Duration.ofNanos(Math.max(0, periodEnd - System.nanoTime())));
      } else {
        stop = false;
        while (!stop && System.nanoTime() < periodEnd) {
          lastBacklog = outstandingDeliveries(plan, worker.totals());
          if (until.test(lastBacklog)) {
            met = true;
            break;
          }
          stop =
              waitOrAbort(
                  Duration.ofNanos(
                      Math.max(0, Math.min(100_000_000L, periodEnd - System.nanoTime()))));
        }
      }
      PeriodStats stats = worker.takePeriod();
      sent += stats.sent();
      received += stats.received();
      long lag = worker.scheduleLag();
      long now = System.nanoTime();
      double periodSeconds = (now - periodStart) / 1e9;
      long backlog = measurement.add(phase, stats, periodSeconds);
      listener.period(
          phase, (now - phaseStart) / 1e9, seconds(length), stats, periodSeconds, backlog, lag);
      periodStart = now;
      if (stop) {
        throw new RunException(abortReason);
      }
    }
    return new PhaseTally((System.nanoTime() - phaseStart) / 1e9, sent, received, lastBacklog, met);
  }

  /** Consumers that received nothing for this long at the end of the drain are stalled. */
  private static final long STALLED_AFTER_NANOS = 5_000_000_000L;

  /** After load stops: waits (bounded) for outstanding completions and deliveries. */
  private DeliveryBalance.DrainOutcome drain(RunPlan plan, Measurement measurement) {
    long deadline = System.nanoTime() + options.drainTimeout().toNanos();
    long lastReceived = -1;
    long lastProgress = System.nanoTime();
    DeliveryBalance.DrainOutcome outcome;
    while (true) {
      measurement.add(Phase.DRAIN, worker.takePeriod(), 0);
      PeriodStats whole = measurement.wholeRun();
      if (whole.received() != lastReceived) {
        lastReceived = whole.received();
        lastProgress = System.nanoTime();
      }
      boolean sendsDone = whole.acknowledged() + whole.failed() >= whole.sent();
      long missing = outstandingDeliveries(plan, worker.totals());
      if (sendsDone && missing == 0) {
        outcome = DeliveryBalance.DrainOutcome.COMPLETE;
        break;
      }
      if (System.nanoTime() > deadline) {
        boolean stalled = System.nanoTime() - lastProgress > STALLED_AFTER_NANOS;
        outcome =
            stalled
                ? DeliveryBalance.DrainOutcome.STALLED
                : DeliveryBalance.DrainOutcome.STILL_RECEIVING;
        errors.add(
            String.format(
                "drain: after %d s, %d send(s) had not completed and %d delivery(ies) were missing; %s",
                options.drainTimeout().toSeconds(),
                Math.max(0, whole.sent() - whole.acknowledged() - whole.failed()),
                missing,
                stalled
                    ? "consumers had stopped receiving, so they count as lost"
                    : "consumers were still catching up, so they count as in flight, not lost"));
        break;
      }
      if (waitOrAbort(Duration.ofMillis(50))) {
        outcome = DeliveryBalance.DrainOutcome.NOT_DRAINED;
        break;
      }
    }
    // The live totals can be ahead of the last snapshot: collect what arrived in between.
    measurement.add(Phase.DRAIN, worker.takePeriod(), 0);
    return outcome;
  }

  /** Acknowledged messages not yet received, summed over subscriptions. */
  private static long outstandingDeliveries(RunPlan plan, Totals totals) {
    long missing = 0;
    for (Map.Entry<String, String> entry : plan.topicOfSubscription().entrySet()) {
      for (var producer : plan.producers()) {
        if (producer.topic().equals(entry.getValue())) {
          long acked = totals.ackedByProducer().getOrDefault(producer.producerId(), 0L);
          missing += Math.max(0, acked - totals.distinct(entry.getKey(), producer.producerId()));
        }
      }
    }
    return missing;
  }

  private Counters counters(
      RunPlan plan, Measurement measurement, DeliveryBalance.DrainOutcome outcome) {
    PeriodStats whole = measurement.wholeRun();
    Totals totals = plan == null ? null : worker.totals();
    long missing = plan == null ? 0 : outstandingDeliveries(plan, totals);
    // Workers count the duplicates their own consumers receive as they come; those that reached
    // consumers on two workers show only when the coordinator merges what each received.
    long acrossWorkers = totals == null ? 0 : totals.duplicatesAcrossWorkers();
    DeliveryBalance balance = DeliveryBalance.of(missing, outcome);
    return new Counters(
        whole.sent(),
        whole.acknowledged(),
        whole.failed(),
        whole.received(),
        balance.lost(),
        balance.inFlight(),
        whole.duplicates() + acrossWorkers,
        whole.outOfOrder(),
        whole.consumerErrors(),
        whole.untimedAcknowledgements(),
        whole.negativeEndToEnd(),
        whole.foreign());
  }

  private int threadsUsed(RunPlan plan) {
    int producers = plan == null ? 1 : plan.producers().size();
    return Math.max(1, Math.min(producers, Runtime.getRuntime().availableProcessors()));
  }

  private void closeQuietly(RunPlan plan) {
    try {
      worker.closeClients(plan == null || options.keepTopics() ? List.of() : plan.topicNames());
    } catch (RuntimeException e) {
      errors.add("teardown: " + e.getMessage());
    }
    try {
      worker.close();
    } catch (RuntimeException e) {
      errors.add("teardown: " + e.getMessage());
    }
  }

  /** Waits up to {@code time}; true when the run was aborted. */
  private boolean waitOrAbort(Duration time) {
    try {
      return aborted.await(time.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abort("interrupted");
      return true;
    }
  }

  private JsonNode workloadConfig() {
    ObjectNode node = JSON.valueToTree(Map.of());
    try {
      node = (ObjectNode) YAML.readTree(workload.file().toFile());
    } catch (IOException | ClassCastException e) {
      node.put("file", workload.file().toString());
    }
    node.put("effectiveTestDurationSeconds", seconds(workload.testDuration()));
    node.put("effectiveWarmupDurationSeconds", seconds(workload.warmupDuration()));
    return node;
  }

  private JsonNode driverConfig() {
    ObjectNode node = JSON.createObjectNode();
    node.put("file", driverFile.toString());
    try {
      node.set("contents", YAML.readTree(driverFile.toFile()));
    } catch (IOException e) {
      node.put("contents", "unreadable: " + e.getMessage());
    }
    ObjectNode overrides = node.putObject("overrides");
    options.driverOverrides().forEach((key, value) -> overrides.put(key, Secrets.mask(key, value)));
    return node;
  }

  private static String driverNameFrom(Path file, DriverInfo info) {
    try {
      JsonNode tree = YAML.readTree(file.toFile());
      if (tree != null && tree.hasNonNull("name")) {
        return tree.get("name").asText();
      }
    } catch (IOException e) {
      // fall through to the class name
    }
    return info.driverClass();
  }

  private static String readText(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
