package io.plumb.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs that do not count are named, one line each, and take their round's partner along. */
class RoundsTest {

  /**
   * One side's runs of {@code rounds} rounds at 1,000 msg/s, {@code prefix}1.json first: round i's
   * at minute 2i + {@code minuteInRound}, so that A's (0) and B's (1) alternate as --repeat runs
   * them.
   */
  private static List<PairSummary.Run> side(String prefix, int rounds, int minuteInRound) {
    List<PairSummary.Run> runs = new ArrayList<>();
    for (int i = 1; i <= rounds; i++) {
      runs.add(
          new PairSummary.Run(
              Path.of(prefix + i + ".json"),
              SyntheticResults.run(2 * i + minuteInRound, 1000, 1, 5000)));
    }
    return runs;
  }

  @Test
  void incompleteLossyAndGeneratorBoundRunsAreLeftOutWithTheirPartners() {
    List<PairSummary.Run> a = side("a", 5, 0);
    List<PairSummary.Run> b = side("b", 5, 1);
    ((ObjectNode) a.get(1).json().path("counters")).put("lost", 12);
    ObjectNode bound = (ObjectNode) b.get(3).json();
    bound.put("generatorBound", true);
    bound.putArray("generatorBoundReasons").add("producers fell behind");
    ObjectNode cut = (ObjectNode) b.get(4).json();
    cut.put("complete", false);
    cut.put("incompleteReason", "interrupted by the user");

    Rounds rounds = Rounds.pair(a, b, false);
    assertEquals(List.of("a1.json", "a3.json"), names(rounds.a()));
    assertEquals(List.of("b1.json", "b3.json"), names(rounds.b()));
    assertEquals(
        List.of(
            "left out: A round 2, a2.json: lost 12 message(s)",
            "left out: B round 2, b2.json: its partner in round 2 was left out",
            "left out: B round 4, b4.json: generator-bound (producers fell behind)",
            "left out: A round 4, a4.json: its partner in round 4 was left out",
            "left out: B round 5, b5.json: incomplete (interrupted by the user)",
            "left out: A round 5, a5.json: its partner in round 5 was left out"),
        rounds.leftOut());

    Rounds all = Rounds.pair(a, b, true);
    assertEquals(5, all.a().size());
    assertEquals(List.of(), all.leftOut());

    Rounds uneven = Rounds.pair(a, b.subList(0, 1), true);
    assertEquals(1, uneven.a().size());
    assertEquals(4, uneven.leftOut().size());
    assertEquals(
        "left out: A round 2, a2.json: B has no run in this round", uneven.leftOut().get(0));
  }

  @Test
  void aRunWhoseFaultWasNotAppliedIsLeftOutWithItsPartner() {
    // --repeat with --faults: the load ran to its end (complete), but the fault did nothing, so
    // the round measured a run without it and would flatter its side.
    List<PairSummary.Run> a = side("a", 2, 0);
    List<PairSummary.Run> b = side("b", 2, 1);
    ((ObjectNode) b.get(1).json())
        .put("faultFailure", "fault 1 (kill leader) was not applied: no leader named");

    Rounds rounds = Rounds.pair(a, b, false);
    assertEquals(List.of("a1.json"), names(rounds.a()));
    assertEquals(
        List.of(
            "left out: B round 2, b2.json: fault failed (fault 1 (kill leader) was not applied:"
                + " no leader named)",
            "left out: A round 2, a2.json: its partner in round 2 was left out"),
        rounds.leftOut());
  }

  @Test
  void aRunWhoseDrainEndedWithMessagesStillInFlightIsLeftOutWithItsPartner() {
    // The drain's time ran out while consumers were still catching up: those messages are late,
    // not lost, but they are missing from the end-to-end latencies as lost ones are, and they are
    // the latest of all, so the run's percentiles read low.
    List<PairSummary.Run> a = side("a", 2, 0);
    List<PairSummary.Run> b = side("b", 2, 1);
    ((ObjectNode) b.get(0).json().path("counters")).put("inFlight", 4_000);

    Rounds rounds = Rounds.pair(a, b, false);
    assertEquals(List.of("a2.json"), names(rounds.a()));
    assertEquals(
        List.of(
            "left out: B round 1, b1.json: 4,000 message(s) still in flight when the drain ended",
            "left out: A round 1, a1.json: its partner in round 1 was left out"),
        rounds.leftOut());
  }

  private static List<String> names(List<PairSummary.Run> runs) {
    return runs.stream().map(r -> r.file().toString()).toList();
  }
}
