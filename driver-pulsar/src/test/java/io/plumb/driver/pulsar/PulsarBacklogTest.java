package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BacklogOutcome;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.PeriodSample;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog workload through the whole engine on the local standalone broker with the shipped
 * {@code pulsar.yaml}: the consumer pauses (the client stops granting the broker permits) while
 * 5,120 messages of 1 KiB pile up on the durable subscription, then resumes and drains them, with
 * every message received exactly once.
 *
 * <p>The receiver queue is 1,000 messages per partition rather than the file's 10,000: what the
 * broker already had permits for still arrives after the pause (see {@link PulsarConsumer#pause}),
 * up to 30,000 messages over 3 partitions with the file's queue, 7.5 s at this rate before the
 * backlog starts to grow (the build took 8.1 s); 3,000 keeps the test short without changing what
 * it checks.
 */
class PulsarBacklogTest {
  @TempDir Path dir;

  @Test
  void consumersPauseWhileTheBacklogBuildsThenDrainIt() throws IOException {
    Path workload = dir.resolve("backlog.yaml");
    Files.writeString(
        workload,
        """
        name: pulsar-backlog
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
        """);
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            Path.of("pulsar.yaml"),
            new LocalWorker(),
            RunOptions.defaults()
                .withPeriod(Duration.ofMillis(500))
                .withDriverOverrides(Map.of("consumer.receiverQueueSize", "1000")),
            RunListener.SILENT);
    RunReport report = run.execute();
    assertTrue(report.complete(), report.incompleteReason() + " " + report.errors());
    BacklogOutcome backlog = run.backlogOutcome().orElseThrow();

    assertEquals(5120, backlog.targetMessages());
    assertTrue(backlog.backlogAtDrainStart() >= 5120, backlog.toString());
    assertTrue(backlog.completed(), backlog.toString());
    // At 4,000 msg/s the backlog of an unpaused consumer stays near zero: reaching 5,120 proves
    // the pause. (Messages the broker had permits for still arrive after it, which only delays
    // the build: see PulsarConsumer#pause.)
    assertTrue(backlog.buildSeconds() > 0.3, backlog.toString());
    // The backlog shrank while producers went on. Not a rate: on a busy host producers fall behind
    // their schedule during the drain, and the consumers then need not outrun 4,000 msg/s.
    assertTrue(backlog.drainNetRateMsgPerSec() > 0, backlog.toString());
    long peak = report.samples().stream().mapToLong(PeriodSample::backlog).max().orElseThrow();
    assertTrue(peak >= 5000, "peak backlog " + peak);
    assertEquals(report.counters().sent(), report.counters().received());
    assertEquals(0, report.counters().duplicated());
    assertEquals(0, report.counters().lost());
    assertEquals(0, report.counters().consumerErrors());
    // Nothing on the local broker can take the backlog away: no quota, no TTL (read back).
    Map<String, String> facts = report.brokerFacts();
    assertEquals(
        "none (broker defaults backlogQuotaDefaultLimitBytes=-1, backlogQuotaDefaultLimitSecond=-1)",
        facts.get(BrokerLimits.QUOTA_FACT),
        facts.toString());
    assertEquals(
        "none (broker default ttlDurationDefaultInSeconds=0)",
        facts.get(BrokerLimits.TTL_FACT),
        facts.toString());
    // Pulsar's default 5 MiB, less the room kept for metadata: what a workload may ask for.
    assertEquals(
        String.valueOf(5 * 1024 * 1024 - BrokerLimits.METADATA_BYTES),
        facts.get(io.plumb.driver.BrokerFactNames.MAX_MESSAGE_BYTES),
        facts.toString());
  }
}
