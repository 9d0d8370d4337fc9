package io.plumb.coordinator;

import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.Workload;
import io.plumb.workload.WorkloadReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

  public SmokeRun withSubscriptions(int count) {
    return new SmokeRun(
        partitions, count, consumersPerSubscription, producers, rate, duration, messageSize);
  }

  public SmokeRun withRate(double messagesPerSecond) {
    return new SmokeRun(
        partitions,
        subscriptions,
        consumersPerSubscription,
        producers,
        messagesPerSecond,
        duration,
        messageSize);
  }

  /**
   * Runs {@code driverFile} with a one-second warm-up; the workload file goes to {@code scratch}.
   */
  public RunReport run(Path driverFile, Map<String, String> overrides, Path scratch) {
    Path workloadFile = scratch.resolve("smoke-" + driverFile.getFileName());
    String yaml =
        String.join(
            "\n",
            "name: smoke",
            "topics: 1",
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
    RunOptions options =
        RunOptions.defaults().withDriverOverrides(overrides).withPeriod(Duration.ofSeconds(1));
    return new BenchmarkRun(workload, driverFile, new LocalWorker(), options, RunListener.SILENT)
        .execute();
  }
}
