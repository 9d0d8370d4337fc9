package io.plumb.driver.kafka;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog workload through the whole engine on the local broker: the Kafka consumers pause (on
 * their poll threads) while 5,120 messages of 1 KiB pile up, then resume and drain them, with every
 * message received exactly once.
 */
class KafkaBacklogTest {
  @TempDir Path dir;

  @Test
  void consumersPauseWhileTheBacklogBuildsThenDrainIt() throws IOException {
    Path workload = dir.resolve("backlog.yaml");
    Files.writeString(
        workload,
        """
        name: kafka-backlog
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
            Path.of("kafka.yaml"),
            new LocalWorker(),
            RunOptions.defaults().withPeriod(Duration.ofMillis(500)),
            RunListener.SILENT);
    RunReport report = run.execute();
    assertTrue(report.complete(), report.incompleteReason() + " " + report.errors());
    BacklogOutcome backlog = run.backlogOutcome().orElseThrow();
    assertEquals(5120, backlog.targetMessages());
    assertTrue(backlog.backlogAtDrainStart() >= 5120, backlog.toString());
    assertTrue(backlog.completed(), backlog.toString());
    // At 4,000 msg/s the backlog of unpaused consumers stays near zero: reaching 5,120 proves the
    // pause. (The build can beat 1.28 s when producers catch up on a schedule they fell behind.)
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
  }
}
