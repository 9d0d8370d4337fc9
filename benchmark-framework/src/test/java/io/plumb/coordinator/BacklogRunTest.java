package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import io.plumb.result.PeriodSample;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OMB's backlog workloads, producer-only and consumer-only runs, on the loopback driver. */
class BacklogRunTest {
  @TempDir Path dir;

  private BenchmarkRun run;

  private RunReport run(String workloadYaml, String driverYaml) throws IOException {
    Path workload = dir.resolve("workload.yaml");
    Files.writeString(workload, workloadYaml);
    Path driver = dir.resolve("driver.yaml");
    Files.writeString(driver, driverYaml);
    run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            driver,
            new LocalWorker(),
            RunOptions.defaults().withPeriod(Duration.ofMillis(500)),
            RunListener.SILENT);
    return run.execute();
  }

  private static final String LOOPBACK = LoopbackDriverFile.TEXT;

  /** 0.01 GiB of 1 KiB messages is 10,486 messages: about 1 s of building at 10,000 msg/s. */
  private static String backlogWorkload(String extra) {
    return """
        name: backlog
        topics: 1
        partitionsPerTopic: 2
        messageSize: 1024
        subscriptionsPerTopic: 1
        consumerPerSubscription: 2
        producersPerTopic: 1
        producerRate: 10000
        consumerBacklogSizeGB: 0.01
        testDurationSeconds: 1
        warmupDurationSeconds: 0
        """
        + extra;
  }

  @Test
  void buildsTheBacklogWithConsumersPausedThenDrainsIt() throws IOException {
    RunReport report = run(backlogWorkload("backlogDrainRatio: 1.0\n"), LOOPBACK);
    assertTrue(report.complete(), report.incompleteReason());
    BacklogOutcome backlog = run.backlogOutcome().orElseThrow();
    assertEquals(10_486, backlog.targetMessages());
    assertTrue(backlog.backlogAtDrainStart() >= 10_486, backlog.toString());
    // Built at the producers' rate: 10,486 messages at 10,000 msg/s.
    assertTrue(backlog.buildSeconds() > 0.8 && backlog.buildSeconds() < 3, backlog.toString());
    // (wide: with no warm-up, producers on a crowded host start behind schedule)
    assertEquals(10_000, backlog.buildRateMsgPerSec(), 3_500, backlog.toString());
    // Drained completely (down to OMB's floor of 1,000), faster than producers add to it.
    assertEquals(1_000, backlog.drainFloor());
    assertTrue(backlog.completed());
    assertTrue(backlog.drainSeconds() < 2, backlog.toString());
    assertTrue(backlog.drainConsumeRateMsgPerSec() > 10_000, backlog.toString());
    assertTrue(backlog.drainNetRateMsgPerSec() > 0, backlog.toString());
    BacklogTimeline.assertRoseAndDrained(report, 10_000);
    assertEquals(0, report.counters().outOfOrder());
  }

  @Test
  void aPartialDrainRatioStopsAtItsShareOfTheBacklog() throws IOException {
    RunReport report = run(backlogWorkload("backlogDrainRatio: 0.5\n"), LOOPBACK);
    assertTrue(report.complete(), report.incompleteReason());
    assertEquals(5_243, run.backlogOutcome().orElseThrow().drainFloor());
  }

  @Test
  void consumerOnlyStopsProducersAndMeasuresTheDrain() throws IOException {
    RunReport report = run(backlogWorkload("consumerOnly: true\n"), LOOPBACK);
    assertTrue(report.complete(), report.incompleteReason());
    BacklogOutcome backlog = run.backlogOutcome().orElseThrow();
    assertTrue(backlog.consumerOnly());
    // The drain's period holds only the few sends between the build's last period and the stop.
    PeriodSample drain = report.samples().get(report.samples().size() - 1);
    assertTrue(drain.stats().sent() < 500, "sent while draining: " + drain.stats().sent());
    assertTrue(drain.stats().received() > 9_000, "drained: " + drain.stats().received());
    assertTrue(backlog.drainNetRateMsgPerSec() > 0);
    assertEquals(report.counters().sent(), report.counters().received());
    assertTrue(report.generatorBoundReasons().isEmpty(), report.generatorBoundReasons().toString());
  }

  @Test
  void producerOnlyRunsNeedNoConsumers() throws IOException {
    RunReport report =
        run(
            WorkloadYaml.oneTopic().named("producer-only").subscriptions(0, 0).rate(5000).text(),
            LOOPBACK);
    assertTrue(report.complete(), report.incompleteReason());
    assertTrue(report.counters().sent() > 4_000, report.counters().toString());
    assertEquals(report.counters().sent(), report.counters().acknowledged());
    assertEquals(0, report.counters().received());
    assertEquals(0, report.counters().lost());
  }

  @Test
  void aDriverThatCannotPauseConsumersIsOneLineBeforeAnyLoad() {
    BadInputException e =
        assertThrows(
            BadInputException.class,
            () ->
                run(
                    backlogWorkload(""),
                    "name: Capacity\ndriverClass: io.plumb.search.CapacityDriver\ncapacity: 1000\n"));
    assertTrue(e.getMessage().contains("consumerBacklogSizeGB"), e.getMessage());
    assertTrue(e.getMessage().contains("cannot pause consumers"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }
}
