package io.plumb.fault;

import java.util.List;

/**
 * Every fault's outcome, and what happened before the first fault's window: together they account
 * for the run's own failures, losses, duplicates and reorderings, each exactly once.
 */
public record FaultFigures(List<FaultOutcome> faults, BeforeFirstFault beforeFirstFault) {

  public static final FaultFigures NONE = new FaultFigures(List.of(), BeforeFirstFault.NOTHING);

  public FaultFigures {
    faults = List.copyOf(faults);
  }
}
