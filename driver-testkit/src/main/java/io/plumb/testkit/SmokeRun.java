package io.plumb.testkit;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.fault.FaultPlan;
import io.plumb.message.HeaderPlacement;
import io.plumb.result.Counters;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.Workload;
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
 * A short run of a driver file through the whole engine, in-process: what each driver's tests use
 * to check that a shipped YAML delivers every message exactly once on a real broker.
 *
 * @param partitions partitions of the one topic
 * @param subscriptions subscriptions on it, each with {@code consumersPerSubscription} consumers
 * @param rate messages per second over {@code producers} producers
 */
public record SmokeRun(
    int partitions,
    int subscriptions,
    int consumersPerSubscription,
    int producers,
    double rate,
    Duration duration,
    int messageSize) {

  /** 3 partitions, 2 subscriptions of 2 consumers, 2 keyed producers, 1,000 msg/s of 1 KB, 3 s. */
  public static SmokeRun standard() {
    return new SmokeRun(3, 2, 2, 2, 1_000, Duration.ofSeconds(3), 1024);
  }

  /**
   * One producer and one consumer on one partition, 2,000 msg/s of 1 KB for {@code duration}: the
   * run a fault cluster test makes, one ordered stream on which every loss, duplicate and
   * reordering a fault causes shows, at a rate a 2-core host keeps while a node restarts.
   */
  public static SmokeRun oneStream(Duration duration) {
    return new SmokeRun(1, 1, 1, 1, 2_000, duration, 1024);
  }

  /**
   * Messages of {@code messageSize} bytes, 20 a second for 2 s over one partition, one producer and
   * one consumer: few enough that a broker's largest message runs in any test's memory.
   */
  public static SmokeRun ofMessageSize(int messageSize) {
    return new SmokeRun(2, 1, 1, 1, 20, Duration.ofSeconds(2), messageSize);
  }

  /**
   * 1-byte messages, smaller than Plumb's header, for 2 s at 500 msg/s over 2 partitions, one
   * producer and one consumer: about 1,000 end-to-end latencies.
   */
  public static SmokeRun oneByte() {
    return new SmokeRun(2, 1, 1, 1, 500, Duration.ofSeconds(2), 1);
  }

  /**
   * What is wrong with a run of messages smaller than the header ({@link #oneByte}): its {@link
   * #deliveryProblems}, a result that does not say the header travelled in the broker's metadata
   * with {@code expectedDetail} (where, and the bytes it added on the wire), or fewer end-to-end
   * latencies than half the messages (each is timed from the header's send time).
   */
  public List<String> metadataHeaderProblems(RunReport report, String expectedDetail) {
    List<String> problems = deliveryProblems(report);
    Map<String, String> facts = report.brokerFacts();
    if (!"metadata".equals(facts.get(HeaderPlacement.FACT))) {
      problems.add("header travelled in " + facts.get(HeaderPlacement.FACT) + ", not metadata");
    }
    if (!expectedDetail.equals(facts.get(HeaderPlacement.DETAIL_FACT))) {
      problems.add(
          "header detail '"
              + facts.get(HeaderPlacement.DETAIL_FACT)
              + "', expected '"
              + expectedDetail
              + "'");
    }
    long timed = report.measured().endToEndLatency().getTotalCount();
    if (timed < rate * duration.toSeconds() / 2) {
      problems.add("only " + timed + " end-to-end latencies");
    }
    return problems;
  }

  /**
   * What is wrong with the accounting of a run that promises delivery: empty when the run
   * completed, every message was acknowledged, every subscription received each exactly once, and
   * the measured phase recorded end-to-end latencies (a message whose header did not come back
   * whole is received but untimed).
   */
  public List<String> deliveryProblems(RunReport report) {
    List<String> problems = new ArrayList<>();
    Counters counters = report.counters();
    if (!report.complete()) {
      problems.add("incomplete: " + report.incompleteReason());
    }
    if (counters.sent() < rate * duration.toSeconds() / 2) {
      problems.add("sent only " + counters.sent());
    }
    if (counters.acknowledged() != counters.sent() || counters.failed() != 0) {
      problems.add(
          "sent "
              + counters.sent()
              + " but acknowledged "
              + counters.acknowledged()
              + ", failed "
              + counters.failed());
    }
    if (counters.received() != counters.sent() * subscriptions) {
      problems.add(
          "received "
              + counters.received()
              + " for "
              + subscriptions
              + " subscription(s) of "
              + counters.sent()
              + " sent");
    }
    if (counters.inFlight() != 0) {
      problems.add(counters.inFlight() + " message(s) still in flight when the run ended");
    }
    if (counters.lost() != 0 || counters.duplicated() != 0 || counters.consumerErrors() != 0) {
      problems.add(
          "lost "
              + counters.lost()
              + ", duplicated "
              + counters.duplicated()
              + ", consumer errors "
              + counters.consumerErrors());
    }
    if (counters.received() > 0 && report.measured().endToEndLatency().getTotalCount() == 0) {
      problems.add("no end-to-end latency recorded for " + counters.received() + " received");
    }
    problems.addAll(report.errors());
    return problems;
  }

  /**
   * Runs {@code driverFile} as {@link #run} does and checks that it delivered.
   *
   * @return the report, for the caller's further checks (its broker facts)
   * @throws AssertionError listing the {@link #deliveryProblems} when there are any
   */
  public RunReport assertDelivers(Path driverFile, Map<String, String> overrides, Path scratch) {
    RunReport report = run(driverFile, overrides, scratch);
    List<String> problems = deliveryProblems(report);
    if (!problems.isEmpty()) {
      throw new AssertionError(driverFile + " did not deliver: " + problems);
    }
    return report;
  }

  /**
   * Runs {@code driverFile} with a one-second warm-up; the workload file goes to {@code scratch}.
   */
  public RunReport run(Path driverFile, Map<String, String> overrides, Path scratch) {
    return run(driverFile, overrides, scratch, RunOptions.defaults());
  }

  /**
   * Runs {@code driverFile} with the fault plan {@code faultPlan} applied to the local cluster
   * during the measured phase (read and checked as {@code --faults} does).
   */
  public RunReport runWithFaults(
      Path driverFile, Path faultPlan, Map<String, String> overrides, Path scratch) {
    return runWithFaults(1, driverFile, faultPlan, overrides, scratch);
  }

  /**
   * The same over {@code topics} topics of this shape each: per-fault figures must keep each
   * topic's messages to its own subscriptions.
   */
  public RunReport runWithFaults(
      int topics, Path driverFile, Path faultPlan, Map<String, String> overrides, Path scratch) {
    return run(
        topics,
        driverFile,
        overrides,
        scratch,
        RunOptions.defaults().withFaultPlan(FaultPlan.read(faultPlan)));
  }

  private RunReport run(
      Path driverFile, Map<String, String> overrides, Path scratch, RunOptions base) {
    return run(1, driverFile, overrides, scratch, base);
  }

  private RunReport run(
      int topics, Path driverFile, Map<String, String> overrides, Path scratch, RunOptions base) {
    Path workloadFile = scratch.resolve("smoke-" + driverFile.getFileName());
    String yaml =
        String.join(
            "\n",
            "name: smoke",
            "topics: " + topics,
            "partitionsPerTopic: " + partitions,
            "keyDistributor: KEY_ROUND_ROBIN",
            "messageSize: " + messageSize,
            "subscriptionsPerTopic: " + subscriptions,
            "consumerPerSubscription: " + consumersPerSubscription,
            "producersPerTopic: " + producers,
            "producerRate: " + rate,
            "testDurationSeconds: " + duration.toMillis() / 1000.0,
            "warmupDurationSeconds: 1",
            "");
    try {
      Files.createDirectories(scratch);
      Files.writeString(workloadFile, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Workload workload = WorkloadReader.read(workloadFile);
    RunOptions options = base.withDriverOverrides(overrides).withPeriod(Duration.ofSeconds(1));
    return new BenchmarkRun(workload, driverFile, new LocalWorker(), options, RunListener.SILENT)
        .execute();
  }
}
