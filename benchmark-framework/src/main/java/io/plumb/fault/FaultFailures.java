package io.plumb.fault;

import java.util.List;
import java.util.Optional;

/**
 * Whether a run's faults all did what the plan said. A fault that could not be applied (no leader
 * named, nft failed, a start script failed, the node gone) or whose undoing failed leaves figures
 * that describe some other run: the run then ends with {@link #EXIT_STATUS} and this one line.
 */
public final class FaultFailures {
  /** The exit status of a run whose fault could not be applied or undone (result still written). */
  public static final int EXIT_STATUS = 4;

  private FaultFailures() {}

  /**
   * "fault 1 (kill leader): the broker named no ... within 10 s"; empty when every fault worked.
   */
  public static Optional<String> reason(List<FaultOutcome> faults) {
    List<FaultOutcome> failed = faults.stream().filter(f -> f.error() != null).toList();
    if (failed.isEmpty()) {
      return Optional.empty();
    }
    FaultOutcome first = failed.get(0);
    String what = first.appliedSeconds() == null ? " was not applied: " : " failed: ";
    return Optional.of(
        "fault "
            + first.index()
            + " ("
            + first.action()
            + " "
            + first.target()
            + ")"
            + what
            + first.error()
            + (failed.size() > 1 ? " (and " + (failed.size() - 1) + " more fault(s) failed)" : ""));
  }
}
