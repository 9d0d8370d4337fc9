package io.plumb.repeat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A's and B's runs paired round by round, with the runs left out named: a run that does not count
 * (see {@link RunScreen}) takes its partner of the same round with it, since a pair is the unit of
 * a paired comparison.
 *
 * @param a A's counted runs, one per kept round
 * @param b B's runs of the same rounds
 * @param leftOut one line per run left out, naming its file and why
 */
public record Rounds(List<PairSummary.Run> a, List<PairSummary.Run> b, List<String> leftOut) {

  public Rounds {
    a = List.copyOf(a);
    b = List.copyOf(b);
    leftOut = List.copyOf(leftOut);
  }

  /**
   * @param runsA A's runs in the order they ran
   * @param runsB B's runs in the same order; the shorter side bounds the rounds (an interrupted
   *     repeat can leave one run unpaired, which is then named as left out)
   * @param includeAll keep every run, whatever {@link RunScreen} says
   */
  public static Rounds pair(
      List<PairSummary.Run> runsA, List<PairSummary.Run> runsB, boolean includeAll) {
    List<PairSummary.Run> a = new ArrayList<>();
    List<PairSummary.Run> b = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    int rounds = Math.min(runsA.size(), runsB.size());
    for (int i = 0; i < rounds; i++) {
      PairSummary.Run runA = runsA.get(i);
      PairSummary.Run runB = runsB.get(i);
      Optional<String> whyA =
          includeAll ? Optional.empty() : RunScreen.reasonToLeaveOut(runA.json());
      Optional<String> whyB =
          includeAll ? Optional.empty() : RunScreen.reasonToLeaveOut(runB.json());
      if (whyA.isEmpty() && whyB.isEmpty()) {
        a.add(runA);
        b.add(runB);
        continue;
      }
      int round = i + 1;
      whyA.ifPresent(why -> leftOut.add(line("A", round, runA, why)));
      whyB.ifPresent(why -> leftOut.add(line("B", round, runB, why)));
      if (whyA.isEmpty()) {
        leftOut.add(line("A", round, runA, "its partner in round " + round + " was left out"));
      }
      if (whyB.isEmpty()) {
        leftOut.add(line("B", round, runB, "its partner in round " + round + " was left out"));
      }
    }
    for (int i = rounds; i < runsA.size(); i++) {
      leftOut.add(line("A", i + 1, runsA.get(i), "B has no run in this round"));
    }
    for (int i = rounds; i < runsB.size(); i++) {
      leftOut.add(line("B", i + 1, runsB.get(i), "A has no run in this round"));
    }
    return new Rounds(a, b, leftOut);
  }

  private static String line(String side, int round, PairSummary.Run run, String why) {
    return String.format("left out: %s round %d, %s: %s", side, round, run.file(), why);
  }
}
