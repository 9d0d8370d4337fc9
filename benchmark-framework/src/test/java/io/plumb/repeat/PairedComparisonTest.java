package io.plumb.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.plumb.input.BadInputException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** The family, the primary metric and the percentile sample rule over synthetic paired rounds. */
class PairedComparisonTest {

  private static PairedComparison.Line line(PairedComparison c, String metric) {
    return c.lines().stream()
        .filter(l -> l.metric().name().equals(metric))
        .findFirst()
        .orElseThrow();
  }

  /** B's worker CPU 20% above A's in every round, all else equal but for a little noise. */
  private static PairedComparison cpuOnly(int rounds) {
    List<JsonNode> a = new ArrayList<>();
    List<JsonNode> b = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      double noise = 1 + 0.001 * ((i % 3) - 1);
      a.add(SyntheticResults.run(2 * i, 1000, 1, 1_000_000));
      ObjectNode runB = SyntheticResults.run(2 * i + 1, 1000, noise, 1_000_000);
      ((ObjectNode) runB.path("resources").path("summary").path("worker")).put("cpuUserCores", 0.5);
      b.add(runB);
    }
    return PairedComparison.of(a, b, PrimaryMetric.parse("throughput"), 0.05);
  }

  @Test
  void aSecondaryDifferenceMustSurviveHolmOverTheFamily() {
    // Worker CPU 0.5 -> 0.6 cores in each of 5 rounds: the interval alone is beyond ±5%, but the
    // smallest p 5 rounds can give (2/32) times the 15 metrics of the family exceeds 6.25%.
    PairedComparison five = cpuOnly(5);
    PairedComparison.Line cpu = line(five, "worker CPU");
    assertEquals(Verdict.DIFFERENT, cpu.difference().intervalVerdict(0.05));
    assertEquals(Verdict.NOT_DISTINGUISHABLE, cpu.verdict());
    assertEquals(15 * 2.0 / 32, cpu.adjustedP(), 1e-12);
    assertTrue(cpu.note().startsWith("beyond ±5% on its own, not after Holm over 15 metrics"));
    // Ten rounds: p = 2/1024; CPU's is the only one that small: 15 x 2/1024 = 2.9%, within
    // 1 - the 10-round level (the 9th Walsh average from each end: 95.1%).
    PairedComparison ten = cpuOnly(10);
    PairedComparison.Line cpu10 = line(ten, "worker CPU");
    assertEquals(15 * 2.0 / 1024, cpu10.adjustedP(), 1e-12);
    assertEquals(Verdict.DIFFERENT, cpu10.verdict());
    // The primary, throughput, is equal in every round: the same within the margin, never Holm's.
    assertEquals(Verdict.SAME_WITHIN_MARGIN, ten.primaryLine().verdict());
    assertTrue(Double.isNaN(ten.primaryLine().adjustedP()));
    assertEquals("publish rate", ten.primary().metric().name());
  }

  @Test
  void aPercentileNeedsTenSamplesBeyondItInEveryRun() {
    assertEquals(20, metric("publish p50").minSamples());
    assertEquals(1_000, metric("publish p99").minSamples());
    assertEquals(10_000, metric("publish p99.9").minSamples());
    assertEquals(100_000, metric("end-to-end p99.99").minSamples());
    List<JsonNode> a = new ArrayList<>();
    List<JsonNode> b = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      a.add(SyntheticResults.run(2 * i, 1000, 1, 50_000));
      b.add(SyntheticResults.run(2 * i + 1, 1000, 1, i == 3 ? 99_999 : 100_000));
    }
    PairedComparison c = PairedComparison.of(a, b, PrimaryMetric.parse(null), 0.05);
    PairedComparison.Line tail = line(c, "end-to-end p99.99");
    assertNull(tail.verdict());
    assertNull(tail.difference());
    assertEquals(
        "not reported: p99.99 needs 100,000 samples a run (10 beyond it), the fewest here 50,000",
        tail.note());
    assertEquals(Verdict.SAME_WITHIN_MARGIN, line(c, "end-to-end p99.9").verdict());
  }

  @Test
  void theDefaultPrimaryIsLatencyWhenEveryRunKeptItsRateElseThroughput() {
    List<JsonNode> kept = List.of(SyntheticResults.run(0, 1000, 1, 5000));
    assertEquals("end-to-end p99", PrimaryMetric.parse(null).resolve(kept).metric().name());
    ObjectNode behind = SyntheticResults.run(0, 1000, 1, 5000);
    ((ObjectNode) behind.path("throughput")).put("publishRateMsgPerSec", 900);
    assertEquals(
        "publish rate", PrimaryMetric.parse(null).resolve(List.of(behind)).metric().name());
    assertEquals("end-to-end p99.9", PrimaryMetric.parse("P99.9").resolve(kept).metric().name());
    assertEquals("worker CPU", PrimaryMetric.parse("worker cpu").resolve(kept).metric().name());
    BadInputException e =
        Assertions.assertThrows(BadInputException.class, () -> PrimaryMetric.parse("p42"));
    assertTrue(
        e.getMessage().startsWith("--primary: expected throughput, peak, p50,"), e.getMessage());
  }

  @Test
  void peakRoundsAreComparedByTheirStablePeakAndOneThatHeldNoneIsLeftOut() {
    List<JsonNode> a = new ArrayList<>();
    List<JsonNode> b = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      a.add(searched(SyntheticResults.run(2 * i, 1000, 1, 5000), 1000 + i));
      b.add(searched(SyntheticResults.run(2 * i + 1, 2000, 1, 5000), 2000 + i));
    }
    PrimaryMetric.Chosen chosen = PrimaryMetric.parse(null).resolve(a);
    assertEquals("stable peak", chosen.metric().name());
    assertEquals(
        "default: every run searched for its peak, so the stable peak is what differs",
        chosen.reason());
    assertEquals("stable peak", PrimaryMetric.parse("peak").resolve(a).metric().name());
    PairedComparison c = PairedComparison.of(a, b, PrimaryMetric.parse(null), 0.05);
    assertEquals(Verdict.DIFFERENT, line(c, "stable peak").verdict());

    ObjectNode none = searched(SyntheticResults.run(0, 1000, 1, 5000), 0);
    ((ObjectNode) none.path("search")).putNull("stablePeakMsgPerSec");
    assertEquals(
        "no stable peak: no rate found held for the full duration",
        RunScreen.reasonToLeaveOut(none).orElseThrow());
    ObjectNode host = searched(SyntheticResults.run(0, 1000, 1, 5000), 1000);
    ((ObjectNode) host.path("search")).put("generatorBound", true).put("conclusion", "the host");
    assertEquals("generator-bound peak (the host)", RunScreen.reasonToLeaveOut(host).orElseThrow());
  }

  @Test
  void aRunWithFailedSendsIsLeftOutUnlessAFaultExplainsThem() {
    ObjectNode refused = SyntheticResults.run(0, 1000, 1, 5000);
    ((ObjectNode) refused.path("counters")).put("failed", 1234);
    assertEquals("1,234 send(s) failed", RunScreen.reasonToLeaveOut(refused).orElseThrow());
    ObjectNode faulted = SyntheticResults.run(0, 1000, 1, 5000);
    ((ObjectNode) faulted.path("counters")).put("failed", 1234);
    faulted.putArray("faults").addObject().put("action", "kill");
    assertTrue(RunScreen.reasonToLeaveOut(faulted).isEmpty());
  }

  @Test
  void aRunWhoseBottleneckVerdictWasUndecidedIsLeftOutButAPeakRoundIsJudgedByItsSearch() {
    ObjectNode undecided = SyntheticResults.run(0, 1000, 1, 5000);
    undecided
        .putObject("bottleneck")
        .put("verdict", "undecided")
        .put("reason", "producers sent 900 msg/s, 10.0% below the target");
    assertEquals(
        "undecided whether the generator limited it (producers sent 900 msg/s, 10.0% below the"
            + " target)",
        RunScreen.reasonToLeaveOut(undecided).orElseThrow());
    ObjectNode broker = SyntheticResults.run(0, 1000, 1, 5000);
    broker.putObject("bottleneck").put("verdict", "pushed back by the broker");
    assertTrue(RunScreen.reasonToLeaveOut(broker).isEmpty());
    ObjectNode peak = searched(SyntheticResults.run(0, 1000, 1, 5000), 1000);
    peak.putObject("bottleneck").put("verdict", "undecided");
    assertTrue(RunScreen.reasonToLeaveOut(peak).isEmpty());
  }

  @Test
  void aPeakHeldOnlyAfterTheGeneratorFailedTheFullDurationMeasurementIsLeftOut() {
    // The search's probes passed 10,000 msg/s and its limit was the broker's (10,500 failed), but
    // the full-duration measurement at 10,000 was generator-bound; 9,524 held after stepping down.
    // The round's figure is then how fast this host could generate for the full duration.
    ObjectNode round = searched(SyntheticResults.run(0, 9524, 1, 5000), 9524);
    ObjectNode search = (ObjectNode) round.path("search");
    search.put("limitedBy", "broker");
    ArrayNode attempts = search.putArray("finalMeasurements");
    attempts
        .addObject()
        .put("targetRateMsgPerSec", 10000.0)
        .put("verdict", "generator-bound")
        .put("sustained", false)
        .put("reason", "producers sent 9100 msg/s; generator-bound: ran all along");
    attempts
        .addObject()
        .put("targetRateMsgPerSec", 9524.0)
        .put("verdict", "sustained")
        .put("sustained", true)
        .put("reason", "sustained");
    assertEquals(
        "generator-bound peak (the full-duration measurement at 10,000 msg/s: producers sent 9100"
            + " msg/s; generator-bound: ran all along)",
        RunScreen.reasonToLeaveOut(round).orElseThrow());
    // A measurement the broker failed before the one that held leaves the round counted.
    ObjectNode broker = searched(SyntheticResults.run(0, 9524, 1, 5000), 9524);
    ArrayNode brokerAttempts = ((ObjectNode) broker.path("search")).putArray("finalMeasurements");
    brokerAttempts.addObject().put("verdict", "consumers-behind").put("sustained", false);
    brokerAttempts.addObject().put("verdict", "sustained").put("sustained", true);
    assertTrue(RunScreen.reasonToLeaveOut(broker).isEmpty());
  }

  private static ObjectNode searched(ObjectNode result, double stablePeak) {
    result.putObject("search").put("stablePeakMsgPerSec", stablePeak).put("generatorBound", false);
    return result;
  }

  @Test
  void fewerThanFiveRoundsGiveNoVerdict() {
    List<JsonNode> a = new ArrayList<>();
    List<JsonNode> b = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      a.add(SyntheticResults.run(2 * i, 1000, 1, 5000));
      b.add(SyntheticResults.run(2 * i + 1, 2000, 1, 5000));
    }
    PairedComparison c = PairedComparison.of(a, b, PrimaryMetric.parse("throughput"), 0.05);
    assertNull(c.primaryLine().verdict());
    assertEquals(
        "no verdict: 4 paired round(s) reach at best a 87.5% interval; 5 or more are needed",
        c.primaryLine().note());
  }

  private static Metric metric(String name) {
    return Metric.all().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
  }
}
