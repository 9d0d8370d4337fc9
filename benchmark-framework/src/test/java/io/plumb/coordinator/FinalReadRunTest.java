package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.result.Counters;
import io.plumb.result.FinalReadFigures;
import io.plumb.result.ResultJson;
import io.plumb.result.RunReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loss judged by a final read, on the loopback driver: a message the consumers never saw but the
 * topic still holds is not lost, one the topic dropped after acknowledging it is, and nothing is
 * left "in flight" once the read saw the end. The drain is cut to 2 s, so without the read every
 * missing message would be called in flight (consumers had been receiving until the load stopped).
 */
class FinalReadRunTest {
  private static final String WORKLOAD =
      """
      topics: 2
      partitionsPerTopic: 3
      keyDistributor: KEY_ROUND_ROBIN
      messageSize: 100
      subscriptionsPerTopic: 1
      consumerPerSubscription: 2
      producersPerTopic: 2
      producerRate: 4000
      testDurationSeconds: 2
      warmupDurationSeconds: 0
      """;

  @TempDir Path dir;

  private RunReport run(String driverExtra) throws Exception {
    RunOptions shortDrain = RunOptions.defaults().withDrainTimeout(Duration.ofSeconds(2));
    RunReport report = LoopbackRuns.run(dir, WORKLOAD, driverExtra, shortDrain);
    assertTrue(report.complete(), report.incompleteReason());
    return report;
  }

  @Test
  void messagesHiddenFromConsumersButKeptByTheTopicAreNotLost() throws Exception {
    RunReport report = run("keepMessages: true\nhideAfterMessages: 2000\nhiddenMessages: 321\n");
    Counters c = report.counters();
    FinalReadFigures read = report.finalRead();
    assertTrue(read.ran(), read.whyNot());
    assertEquals(321, c.acknowledged() - c.received(), "the consumers missed exactly the hidden");
    assertEquals(321, read.acknowledgedFoundOnlyByRead());
    assertEquals(0, c.lost());
    assertEquals(0, c.inFlight());
    assertEquals(0, read.acknowledgedNotInRead(), "the topic kept every acknowledged message");
    // The loopback topic keeps every acknowledged message, and the probes before them.
    assertTrue(read.messagesRead() >= c.acknowledged(), read.messagesRead() + " read");
    assertEquals(2, read.endByTopic().size());
    // The drain's guess ("in flight") gives way to what the read found.
    assertEquals(
        List.of(
            "drain: ended with 321 acknowledged delivery(ies) missing; the final read found 321 of"
                + " them on the broker, the rest count as lost"),
        report.errors().stream().filter(line -> line.startsWith("drain: ")).toList());
  }

  @Test
  void messagesTheTopicDroppedAfterAcknowledgingThemAreExactlyTheLoss() throws Exception {
    RunReport report =
        run(
            "keepMessages: true\nhideAfterMessages: 1000\nhiddenMessages: 200\n"
                + "dropAfterMessages: 3000\ndroppedMessages: 123\n");
    Counters c = report.counters();
    FinalReadFigures read = report.finalRead();
    assertTrue(read.ran(), read.whyNot());
    assertEquals(123, c.lost());
    assertEquals(0, c.inFlight());
    assertEquals(200, read.acknowledgedFoundOnlyByRead());
    assertEquals(c.acknowledged() - c.received() - 200, c.lost());
    // What the topic no longer held, by sequence number: the dropped, not the acknowledged count
    // less everything read (the probes the read also handed over made that 123 less their number).
    assertEquals(123, read.acknowledgedNotInRead());

    JsonNode json = ResultJson.render(report);
    assertEquals(123, json.at("/counters/lost").asLong());
    assertTrue(json.at("/finalRead/ran").asBoolean());
    assertEquals(200, json.at("/finalRead/acknowledgedFoundOnlyByRead").asLong());
    assertEquals(123, json.at("/finalRead/acknowledgedNotInRead").asLong());
    assertEquals(read.messagesRead(), json.at("/finalRead/messagesRead").asLong());
    assertEquals(2, json.at("/finalRead/endByTopic").size());
  }

  @Test
  void aRunWhereEverythingArrivedNeedsNoRead() throws Exception {
    RunReport report = run("keepMessages: true\n");
    assertFalse(report.finalRead().ran());
    assertEquals(
        "not needed: every acknowledged message was received", report.finalRead().whyNot());
    assertEquals(0, report.counters().lost());
    assertEquals(report.counters().acknowledged(), report.counters().received());
  }

  @Test
  void consumersQuietForLessThanTheIdleTimeWhenTheDrainTimesOutLeaveTheMissingInFlight()
      throws Exception {
    // The drain's 7 s end before its 10 s idle time: consumers quiet since the load stopped have
    // not been quiet long enough to call the missing lost (they were, before, after 5 s).
    RunOptions options = RunOptions.defaults().withDrainTimeout(Duration.ofSeconds(7));
    RunReport report =
        LoopbackRuns.run(dir, WORKLOAD, "dropAfterMessages: 3000\ndroppedMessages: 123\n", options);
    assertEquals(0, report.counters().lost());
    assertEquals(123, report.counters().inFlight());
    List<String> drain =
        report.errors().stream().filter(line -> line.startsWith("drain: ")).toList();
    assertEquals(1, drain.size(), drain.toString());
    assertTrue(
        drain.get(0).startsWith("drain: after 7 s, 0 send(s) had not completed and 123"),
        drain.get(0));
    assertTrue(
        drain
            .get(0)
            .endsWith(
                "less than the drain's idle time of 10 s, so they count as in flight, not lost"),
        drain.get(0));
  }

  @Test
  void withoutTheCapabilityTheDrainJudgesAndTheResultSaysWhy() throws Exception {
    RunReport report = run("dropAfterMessages: 3000\ndroppedMessages: 123\n");
    FinalReadFigures read = report.finalRead();
    assertFalse(read.ran());
    assertEquals(
        "the loopback driver keeps no messages unless keepMessages is true", read.whyNot());
    // Today's drain: cut short while consumers had been receiving, so the missing are in flight.
    assertEquals(0, report.counters().lost());
    assertEquals(123, report.counters().inFlight());
    assertEquals(read.whyNot(), ResultJson.render(report).at("/finalRead/whyNot").asText());
  }
}
