package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.fault.BeforeFirstFault;
import io.plumb.resources.ResourceReport;
import io.plumb.result.Counters;
import io.plumb.result.FinalReadFigures;
import io.plumb.result.ResultJson;
import io.plumb.result.RunReport;
import io.plumb.result.UntimedAcknowledgements;
import io.plumb.stats.PeriodStats;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary at the end of a run: the rare counters appear only when they are not zero. */
class ConsoleReporterTest {
  @TempDir Path dir;

  private RunReport loopbackRun() throws IOException {
    Path workload =
        WorkloadYaml.oneTopic().messageSize(64).rate(1000).writeTo(dir.resolve("w.yaml"));
    Path driver = LoopbackDriverFile.write(dir);
    return new BenchmarkRun(
            WorkloadReader.read(workload),
            driver,
            new LocalWorker(),
            RunOptions.defaults(),
            RunListener.SILENT)
        .execute();
  }

  private static String summary(RunReport report) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new ConsoleReporter(new PrintStream(bytes, true, StandardCharsets.UTF_8), 64).finished(report);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theBrokerLineSaysWhatTheRunRanOnAsTheBrokerReportedIt() {
    assertEquals(
        "Broker       version 4.1.1 | 3 nodes | 3 copies of each message (on 1,2,3)",
        ConsoleReporter.brokerLine(
                Map.of(
                    "brokerVersion",
                    "4.1.1",
                    "nodes",
                    "3",
                    "replicas",
                    "3",
                    "replicaNodes",
                    "1,2,3"))
            .orElseThrow());
    assertEquals(
        "Broker       1 node | 1 copy of each message",
        ConsoleReporter.brokerLine(Map.of("nodes", "1", "replicas", "1")).orElseThrow());
    assertTrue(ConsoleReporter.brokerLine(Map.of("stallMillis", "0")).isEmpty());
  }

  /** Facts as the AMQP driver reports them for 4 partitions. */
  private static final Map<String, String> WINDOW_FACTS =
      Map.of(
          "nodes",
          "3",
          "sendWindow",
          "8000",
          "sendWindow.limit",
          "maxUnconfirmed 2000 per partition channel x 4 partitions; set it with --driver-set"
              + " maxUnconfirmed=N (0: no bound)",
          "receiveWindow",
          "4000",
          "receiveWindow.limit",
          "prefetchCount 1000 per partition queue x 4 partitions; set it with --driver-set"
              + " prefetchCount=N");

  @Test
  void theWindowsLineNamesEachWindowAndTheSettingThatDecidesIt() {
    assertEquals(
        "Windows      send 8000 per producer (maxUnconfirmed), receive 4000 per consumer"
            + " (prefetchCount)",
        ConsoleReporter.windowsLine(WINDOW_FACTS).orElseThrow());
    assertEquals(
        "Windows      send unbounded per producer (producer.pendingQueueSize)",
        ConsoleReporter.windowsLine(
                Map.of(
                    "sendWindow",
                    "unbounded",
                    "sendWindow.limit",
                    "producer.pendingQueueSize 0: no count per producer"))
            .orElseThrow());
    // A window whose driver named no setting is still shown, the gap plain.
    assertEquals(
        "Windows      receive 10 chunks per consumer (?)",
        ConsoleReporter.windowsLine(Map.of("receiveWindow", "10 chunks")).orElseThrow());
    assertTrue(ConsoleReporter.windowsLine(Map.of("nodes", "1")).isEmpty());
  }

  @Test
  void theSummaryPrintsTheWindowsUnderTheBrokerLine() throws IOException {
    RunReport clean = loopbackRun();
    assertFalse(summary(clean).contains("Windows"), "the loopback driver reports no window");
    RunReport withWindows = variant(clean, WINDOW_FACTS, clean.counters());
    List<String> lines = summary(withWindows).lines().toList();
    int broker = lines.indexOf("Broker       3 nodes");
    assertTrue(broker >= 0, lines.toString());
    assertEquals(
        "Windows      send 8000 per producer (maxUnconfirmed), receive 4000 per consumer"
            + " (prefetchCount)",
        lines.get(broker + 1));
  }

  @Test
  void rareCountersAreShownOnlyWhenTheyHappened() throws IOException {
    RunReport clean = loopbackRun();
    String quiet = summary(clean);
    assertTrue(quiet.contains("Latency (ms)"), quiet);
    assertFalse(quiet.contains("Also"), quiet);

    Counters c = clean.counters();
    Counters odd =
        new Counters(
            c.sent(),
            c.acknowledged(),
            c.failed(),
            c.received(),
            c.lost(),
            c.inFlight(),
            c.duplicated(),
            c.outOfOrder(),
            c.consumerErrors(),
            3,
            2,
            1,
            0);
    RunReport withOdd = variant(clean, clean.brokerFacts(), odd);
    String loud = summary(withOdd);
    assertTrue(
        loud.contains("Also         negative end-to-end (clocks disagree) 2 | foreign messages 1"),
        loud);
    // Untimed acknowledgements of the whole run, warm-up included, are the result's counter; the
    // summary speaks of those in the measured figures, under the latencies (below).
    assertFalse(loud.contains("Untimed"), loud);
  }

  @Test
  void untimedAcknowledgementsStarTheServiceTimesTheyMayLowerInTheSummaryAndTheResult()
      throws IOException {
    RunReport clean = loopbackRun();
    PeriodStats m = clean.measured();
    long timed = m.serviceTime().getTotalCount();
    // About one acknowledgement in 200 left out: p99.9 and up may read low, p99 and below not.
    long untimed = timed / 199;
    assertTrue(untimed > timed / 1000 && untimed < timed / 100, timed + " timed");
    PeriodStats measured =
        new PeriodStats(
            m.sent(),
            m.sentBytes(),
            m.acknowledged(),
            m.failed(),
            untimed,
            m.received(),
            m.receivedBytes(),
            m.duplicates(),
            m.outOfOrder(),
            m.negativeEndToEnd(),
            m.foreign(),
            m.consumerErrors(),
            m.producerBlockedNanos(),
            m.publishLatency(),
            m.serviceTime(),
            m.sendDelay(),
            m.endToEndLatency(),
            m.producerThreads());
    RunReport run = variant(clean, clean.brokerFacts(), clean.counters(), measured);
    List<String> lines = summary(run).lines().toList();
    String service = row(lines, "  service time (from send)");
    String sendDelay = row(lines, "  send delay");
    for (String row : List.of(service, sendDelay)) {
      String[] cells = row.substring(26).trim().split(" +");
      // p50 p75 p95 p99 unmarked; p99.9 p99.99 p99.999 p99.9999 max marked.
      for (int i = 0; i < cells.length; i++) {
        assertEquals(i >= 4, cells[i].endsWith("*"), row);
      }
    }
    assertFalse(row(lines, "  publish (from intended)").contains("*"));
    assertFalse(row(lines, "  end-to-end").contains("*"));
    String note = row(lines, "Untimed      ");
    double fromPercentile = 100.0 * timed / (timed + untimed);
    assertTrue(
        note.startsWith(
            String.format(
                "Untimed      %,d of %,d acknowledgements (%.2f%%) came after",
                untimed, timed + untimed, 100 - fromPercentile)),
        note);
    assertTrue(
        note.contains(
            "so above " + UntimedAcknowledgements.label(fromPercentile) + " they may read low"),
        note);
    assertEquals(lines.indexOf(row(lines, "  end-to-end")) + 1, lines.indexOf(note));

    JsonNode latency = ResultJson.render(run).path("latency");
    assertEquals(untimed, latency.path("untimedAcknowledgements").asLong());
    assertEquals(
        100.0 * timed / (timed + untimed), latency.path("untimedFromPercentile").asDouble(), 1e-9);
    JsonNode cleanLatency = ResultJson.render(clean).path("latency");
    assertEquals(0, cleanLatency.path("untimedAcknowledgements").asLong(-1));
    assertTrue(cleanLatency.path("untimedFromPercentile").isMissingNode());
  }

  private static String row(List<String> lines, String start) {
    return lines.stream()
        .filter(line -> line.startsWith(start))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line starting '" + start + "' in " + lines));
  }

  @Test
  void endToEndAcrossHostsCarriesItsClockUncertaintyAndThePlainWarningWhenDue() throws IOException {
    RunReport run = loopbackRun();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    // A quarter of a second: far more than a tenth of a loopback's end-to-end median.
    new ConsoleReporter(
            new PrintStream(bytes, true, StandardCharsets.UTF_8),
            64,
            () -> OptionalLong.of(250_000_000))
        .finished(run);
    String summary = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(summary.contains("\n  end-to-end ± 250.000 ms "), summary);
    assertTrue(
        summary.contains(
            "Clocks       end-to-end latency across hosts: clock offsets known to ± 250.000 ms"),
        summary);
    assertTrue(
        summary.contains("; end-to-end latency across these hosts is known only to ± 250.000 ms"),
        summary);

    String local = summary(run);
    assertFalse(local.contains("±"), local);
    assertFalse(local.contains("Clocks"), local);
  }

  /**
   * {@code clean} with other broker facts and counters, and without faults, a bottleneck verdict,
   * resource samples or a final read: only what the summary lines under test read differs.
   */
  private static RunReport variant(
      RunReport clean, Map<String, String> brokerFacts, Counters counters) {
    return variant(clean, brokerFacts, counters, clean.measured());
  }

  private static RunReport variant(
      RunReport clean, Map<String, String> brokerFacts, Counters counters, PeriodStats measured) {
    return new RunReport(
        clean.workload(),
        clean.driverName(),
        clean.targetRate(),
        clean.warmupSeconds(),
        clean.measuredSeconds(),
        clean.samples(),
        measured,
        counters,
        clean.generatorBoundReasons(),
        clean.producerSendShare(),
        clean.incompleteReason(),
        clean.errors(),
        clean.workloadConfig(),
        clean.driverConfig(),
        brokerFacts,
        clean.environment(),
        clean.startTime(),
        clean.endTime(),
        List.of(),
        null,
        ResourceReport.NONE,
        BeforeFirstFault.NOTHING,
        FinalReadFigures.NOT_ASKED);
  }
}
