package io.plumb.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.bottleneck.ThreadEvidence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** The search's logic against modelled brokers whose limits are exact. */
class RateSearchTest {
  private static final SearchSettings SETTINGS =
      SearchSettings.defaults().withProbe(Duration.ZERO, Duration.ofSeconds(2));

  /** A broker that acknowledges and delivers at most {@code capacity} msg/s. */
  private static Prober broker(double capacity) {
    return (rate, settings) -> outcome(rate, rate, Math.min(rate, capacity), BLOCKED, 1_000_000);
  }

  /** Publish rate and acknowledgement rate as measured; the backlog follows the difference. */
  // A second of one producer thread's time: blocked in send() 90% of it, or waiting for a core
  // 60% of it (a starved generator).
  private static final ThreadEvidence BLOCKED =
      new ThreadEvidence(1_000_000_000, 950_000_000, 50_000_000, 50_000_000);

  private static final ThreadEvidence STARVED =
      new ThreadEvidence(1_000_000_000, 100_000_000, 400_000_000, 600_000_000);

  private static ProbeOutcome outcome(
      double rate, double sent, double acknowledged, ThreadEvidence threads, long latencyNanos) {
    double growth = Math.max(0, sent - acknowledged);
    return new ProbeOutcome(
        rate,
        2,
        sent,
        acknowledged,
        acknowledged,
        1,
        growth,
        growth,
        (long) (growth * 2),
        sent < rate ? (long) ((rate - sent) * 2) : 0,
        sent < rate ? 50_000_000 : 10_000,
        sent < rate ? 50_000_000 : 100_000,
        latencyNanos,
        0,
        0,
        0,
        threads,
        List.of(),
        null,
        2,
        Double.NaN,
        Double.NaN,
        LatencySpread.NONE);
  }

  private static SearchResult search(Prober prober, Optional<LatencyTarget> target) {
    return search(prober, target, SETTINGS);
  }

  private static SearchResult search(
      Prober prober, Optional<LatencyTarget> target, SearchSettings settings) {
    return new RateSearch(prober, new StepJudge(target), settings, step -> {}).run("test");
  }

  @Test
  void theVerdictNamesTheClientWindowsBesideThePeak() {
    Prober windowed =
        new Prober() {
          @Override
          public ProbeOutcome probe(double rate, SearchSettings settings) {
            return broker(6_000).probe(rate, settings);
          }

          @Override
          public Optional<String> clientWindows() {
            return Optional.of(
                "send 8000 per producer (maxUnconfirmed), receive 4000 per consumer"
                    + " (prefetchCount)");
          }
        };
    SearchResult result = search(windowed, Optional.empty());

    String peak = "highest sustained rate " + RateSearch.fmt(result.foundRate().orElseThrow());
    assertTrue(
        result
            .conclusion()
            .contains(
                peak
                    + " msg/s [client windows: send 8000 per producer (maxUnconfirmed), receive"
                    + " 4000 per consumer (prefetchCount)]"),
        result.conclusion());
    assertEquals(windowed.clientWindows(), result.clientWindows());
    assertEquals(
        result.clientWindows().orElseThrow(),
        SearchJson.render(result, List.of()).get("clientWindows").asText());

    SearchResult plain = search(broker(6_000), Optional.empty());
    assertFalse(plain.conclusion().contains("windows"), plain.conclusion());
    assertFalse(SearchJson.render(plain, List.of()).has("clientWindows"));
  }

  @Test
  void findsABrokersCapacityWithinFivePercent() {
    for (double capacity : new double[] {37_000, 1_234_567, 900}) {
      SearchResult result = search(broker(capacity), Optional.empty());
      double found = result.foundRate().orElseThrow();
      // The judge tolerates a backlog growing by under 2% of the rate per second.
      assertTrue(found <= capacity * 1.021, capacity + ": found " + found);
      assertTrue(found >= capacity * 0.95, capacity + ": found " + found);
      assertTrue(result.lowestFailedRate().orElseThrow() > capacity);
      assertTrue(result.lowestFailedRate().orElseThrow() <= found * 1.05);
      assertEquals("broker", result.limitedBy());
      assertTrue(result.steps().size() < 25, "probes: " + result.steps().size());
    }
  }

  @Test
  void theSameVerdictsGiveTheSameSteps() {
    List<Double> first = rates(search(broker(52_000), Optional.empty()));
    List<Double> second = rates(search(broker(52_000), Optional.empty()));
    assertEquals(first, second);
    // grow from 1,000 by doubling: 1k..32k sustained, 64k fails twice, then bisection
    assertEquals(
        List.of(1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0, 64000.0),
        first.subList(0, 8));
  }

  @Test
  void oneHiccupWhileGrowingDoesNotCollapseTheSearch() {
    List<Double> probed = new ArrayList<>();
    Prober hiccup =
        (rate, settings) -> {
          boolean firstTimeAt8k = rate == 8000 && !probed.contains(8000.0);
          probed.add(rate);
          return firstTimeAt8k
              ? outcome(rate, rate, rate * 0.5, BLOCKED, 1_000_000)
              : broker(100_000).probe(rate, settings);
        };
    SearchResult result = search(hiccup, Optional.empty());
    assertEquals("confirm", result.steps().get(4).stage());
    assertTrue(result.steps().get(4).verdict().sustained());
    assertTrue(result.foundRate().orElseThrow() >= 100_000 / 1.05, result.conclusion());
  }

  @Test
  void aGeneratorLimitIsToldApartAndNothingAboveItIsAccepted() {
    double generator = 20_000;
    Prober host =
        (rate, settings) ->
            outcome(rate, Math.min(rate, generator), Math.min(rate, generator), STARVED, 1_000_000);
    SearchResult result = search(host, Optional.empty());
    assertEquals("generator", result.limitedBy());
    assertTrue(result.foundRate().orElseThrow() <= generator);
    assertTrue(result.foundRate().orElseThrow() >= generator / 1.05 / 1.02);
    assertTrue(result.conclusion().contains("generator-bound"), result.conclusion());
    for (SearchStep step : result.steps()) {
      boolean above = step.outcome().targetRate() > generator;
      assertEquals(
          above ? StepVerdict.Kind.GENERATOR_BOUND : StepVerdict.Kind.SUSTAINED,
          step.verdict().kind(),
          step.toString());
    }
  }

  @Test
  void aFailedFirstProbeShrinksAndNothingSustainedSaysSo() {
    SearchResult slow = search(broker(300), Optional.empty());
    assertEquals(List.of(1000.0, 1000.0, 250.0), rates(slow).subList(0, 3));
    assertEquals("confirm", slow.steps().get(1).stage());
    assertEquals("shrink", slow.steps().get(2).stage());
    double found = slow.foundRate().orElseThrow();
    // At low rates the judge ignores growth of up to 20 messages over a probe: 3.3% of 300 msg/s
    // over 2 s.
    assertTrue(found <= 300 * 1.034 && found >= 300 * 0.95, "found " + found);

    // A broker that refuses every message: nothing is sustained down to the minimum rate.
    Prober refusing =
        (rate, settings) ->
            new ProbeOutcome(
                rate,
                2,
                rate,
                0,
                0,
                1,
                0,
                0,
                0,
                0,
                10_000,
                100_000,
                -1,
                (long) (rate * 2),
                0,
                0,
                BLOCKED,
                List.of(),
                null,
                2,
                Double.NaN,
                Double.NaN,
                LatencySpread.NONE);
    SearchResult dead = search(refusing, Optional.empty());
    assertTrue(dead.foundRate().isEmpty());
    assertEquals("min-rate", dead.limitedBy());
    assertTrue(dead.conclusion().contains("no rate sustained"), dead.conclusion());
  }

  @Test
  void stopsAtTheMaximumRate() {
    SearchResult result = search(broker(1e9), Optional.empty(), SETTINGS.withMaxRate(5000));
    assertEquals(5000.0, result.foundRate().orElseThrow());
    assertEquals("max-rate", result.limitedBy());
    assertEquals(List.of(1000.0, 2000.0, 4000.0, 5000.0, 5000.0), rates(result));
    assertEquals("recheck", result.steps().get(4).stage());
  }

  @Test
  void aMaximumBelowTheMinimumRateIsStillNeverExceeded() {
    // --slo on a workload of 5 msg/s: the search must not probe, nor answer, the minimum of 10.
    SearchResult result = search(broker(1e9), Optional.empty(), SETTINGS.withMaxRate(5));
    assertEquals(List.of(5.0, 5.0), rates(result));
    assertEquals(5.0, result.foundRate().orElseThrow());
    assertEquals("max-rate", result.limitedBy());
  }

  @Test
  void theAnswerPassedEveryTimeItWasProbed() {
    // Capacity 100,000 msg/s, but the first probe at any rate up to 30% above it passes by luck
    // (the broker had a good quarter minute); later probes at that rate see the real capacity.
    double capacity = 100_000;
    List<Double> probed = new ArrayList<>();
    Prober lucky =
        (rate, settings) -> {
          boolean luck = rate <= capacity * 1.3 && !probed.contains(rate);
          probed.add(rate);
          return luck
              ? outcome(rate, rate, rate, BLOCKED, 1_000_000)
              : broker(capacity).probe(rate, settings);
        };
    SearchResult result = search(lucky, Optional.empty());
    double found = result.foundRate().orElseThrow();
    assertTrue(found <= capacity * 1.021 && found >= capacity * 0.95 / 1.05, "found " + found);
    assertTrue(result.lowestFailedRate().orElseThrow() > found);
    long rechecks = result.steps().stream().filter(s -> s.stage().equals("recheck")).count();
    assertTrue(rechecks >= 2, "rechecks: " + rechecks);
    SearchStep last = result.steps().get(result.steps().size() - 1);
    assertEquals("recheck", last.stage());
    assertTrue(last.verdict().sustained());
    assertEquals(found, last.outcome().targetRate());
    long passesAtFound =
        result.steps().stream()
            .filter(s -> s.outcome().targetRate() == found && s.verdict().sustained())
            .count();
    assertEquals(
        probed.stream().filter(r -> r == found).count(), passesAtFound, "every probe passed");
    // Without the recheck this broker's luckiest probe would be the answer: 127,000 or so.
  }

  @Test
  void aLatencyTargetSearchFindsWhereTheTailCrossesTheLimit() {
    double capacity = 50_000;
    // Queueing: latency = 1 ms / (1 - load), so p99 <= 5 ms holds up to 80% of capacity.
    DoubleUnaryOperator latency = rate -> 1e6 / (1 - Math.min(rate / capacity, 0.999));
    Prober queueing =
        (rate, settings) ->
            outcome(
                rate, rate, Math.min(rate, capacity), BLOCKED, (long) latency.applyAsDouble(rate));
    SearchResult result = search(queueing, Optional.of(LatencyTarget.parse("p99 publish <= 5ms")));
    double found = result.foundRate().orElseThrow();
    assertTrue(found <= 40_000 && found >= 40_000 / 1.05, "found " + found);
    assertEquals("latency-target", result.limitedBy());
  }

  @Test
  void anIncompleteProbeStopsTheSearchWithItsReason() {
    Prober failing =
        (rate, settings) ->
            new ProbeOutcome(
                rate,
                0,
                0,
                0,
                0,
                1,
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
                "broker went away",
                1,
                Double.NaN,
                Double.NaN,
                LatencySpread.NONE);
    SearchResult result = search(failing, Optional.empty());
    assertFalse(result.complete());
    assertTrue(result.incompleteReason().contains("broker went away"));
    assertEquals(1, result.steps().size());
  }

  /**
   * A broker of {@code capacity} msg/s whose latency swings by {@code spreadSeconds} (p99 - p50) at
   * any rate, as one that syncs in batches does: its in-flight counts grow by up to 90% of that
   * swing over a probe without any trend. Above capacity the backlog also grows by the excess, and
   * latency climbs with it.
   */
  private static Prober swinging(double capacity, double spreadSeconds) {
    return (rate, settings) -> {
      double seconds = settings.probeDuration().toMillis() / 1e3;
      double excess = Math.max(0, rate - capacity);
      double growth = excess * seconds + 0.9 * rate * spreadSeconds;
      double spread = spreadSeconds + 0.5 * excess * seconds / capacity;
      long spreadNanos = (long) (spread * 1e9);
      return new ProbeOutcome(
          rate,
          seconds,
          rate,
          rate - growth / seconds,
          rate - growth / seconds,
          1,
          growth / seconds,
          growth / seconds,
          (long) growth,
          0,
          10_000,
          100_000,
          -1,
          0,
          0,
          0,
          BLOCKED,
          List.of(),
          null,
          seconds,
          Double.NaN,
          Double.NaN,
          new LatencySpread(spreadNanos, spreadNanos));
    };
  }

  @Test
  void aBrokerWhoseLatencySwingsIsProbedForLongerNotFailed() {
    double capacity = 2_000;
    SearchResult result = search(swinging(capacity, 0.4), Optional.empty());
    double found = result.foundRate().orElseThrow();
    assertTrue(found <= capacity && found >= capacity / 1.05 / 1.05, "found " + found);
    int first = -1;
    for (int i = 0; i < result.steps().size(); i++) {
      if (result.steps().get(i).verdict().kind() == StepVerdict.Kind.TOO_SHORT_TO_TELL) {
        first = i;
        break;
      }
    }
    assertTrue(first >= 0, "no probe was too short to tell");
    SearchStep unclear = result.steps().get(first);
    SearchStep again = result.steps().get(first + 1);
    assertEquals(unclear.outcome().targetRate(), again.outcome().targetRate());
    assertTrue(again.outcome().seconds() >= 16, "probed again for " + again.outcome().seconds());
    for (SearchStep later : result.steps().subList(first + 1, result.steps().size())) {
      assertTrue(later.outcome().seconds() >= again.outcome().seconds(), later.toString());
    }
    // Judged without the swing, the same broker fails at a fraction of its capacity.
    Prober unseen =
        (rate, settings) ->
            swinging(capacity, 0.4).probe(rate, settings).withLatencySpread(LatencySpread.NONE);
    double blind = search(unseen, Optional.empty()).foundRate().orElse(0.0);
    assertTrue(blind < capacity / 2, "found without the swing " + blind);
  }

  @Test
  void aProbeStillTooShortToTellAtTheLongestCountsAsFailed() {
    // A swing of 10 s: no probe of up to a minute tells a trend from it.
    SearchResult result = search(swinging(1e9, 10), Optional.empty());
    assertTrue(result.foundRate().isEmpty(), result.conclusion());
    List<SearchStep> steps = result.steps();
    assertEquals(2, steps.get(0).outcome().seconds());
    for (SearchStep later : steps.subList(1, steps.size())) {
      assertEquals(StepJudge.LONGEST_PROBE.toSeconds(), later.outcome().seconds());
      assertEquals(StepVerdict.Kind.TOO_SHORT_TO_TELL, later.verdict().kind());
    }
  }

  private static List<Double> rates(SearchResult result) {
    return result.steps().stream().map(step -> step.outcome().targetRate()).toList();
  }
}
