package io.plumb.fault;

import java.time.Duration;
import java.util.List;

/**
 * What became of one planned fault while the run went on: which nodes it hit and when it was
 * applied and undone, on the run's clock (epoch nanoseconds, as the latency samples).
 *
 * @param appliedAt when the action was taken; 0 when it never was (see {@code error})
 * @param undoneAt when the node was let go again (thawed, reconnected, up again); 0 when it was not
 * @param error why the action or its undoing failed; null when both worked
 */
public record FaultRecord(
    FaultSpec spec,
    List<String> nodes,
    String leaderMeaning,
    long appliedAt,
    long undoneAt,
    String error) {

  public boolean applied() {
    return appliedAt != 0;
  }

  FaultRecord withApplied(List<String> hit, long at) {
    return new FaultRecord(spec, List.copyOf(hit), leaderMeaning, at, undoneAt, error);
  }

  FaultRecord withUndone(long at) {
    return new FaultRecord(spec, nodes, leaderMeaning, appliedAt, at, error);
  }

  /** Why the fault failed, still being applied or undone {@code wait} after load stopped. */
  String unfinishedAfter(Duration wait) {
    String after = " " + Durations.text(wait) + " after load stopped";
    return applied()
        ? "undoing: not finished"
            + after
            + " ("
            + (nodes.size() == 1 ? "node " : "nodes ")
            + String.join(", ", nodes)
            + " may not be "
            + FaultActions.undoneWord(spec)
            + ")"
        : "applying: not finished"
            + after
            + " (the nodes it hit may still be down, frozen or cut off)";
  }

  FaultRecord withError(String problem) {
    return new FaultRecord(
        spec,
        nodes,
        leaderMeaning,
        appliedAt,
        undoneAt,
        error == null ? problem : error + "; " + problem);
  }
}
