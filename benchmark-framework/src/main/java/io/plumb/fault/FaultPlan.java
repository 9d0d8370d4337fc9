package io.plumb.fault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A fault plan, read and checked whole before any load ({@link FaultPlanReader}): timed actions on
 * the nodes of the local cluster, applied during the measured phase.
 *
 * @param stallAfter a publish not acknowledged within this of its intended send time is stalled:
 *     the start of unavailability, as a failed publish is
 * @param drainIdle after load stops, consumers idle this long end the drain: what is still missing
 *     then is lost (a broker recovering from a fault may pause deliveries for a while)
 */
public record FaultPlan(
    Path file, Duration stallAfter, Duration drainIdle, List<FaultSpec> faults) {

  public static final Duration DEFAULT_STALL_AFTER = Duration.ofSeconds(1);
  public static final Duration DEFAULT_DRAIN_IDLE = Duration.ofSeconds(30);

  public FaultPlan {
    faults = List.copyOf(faults);
  }

  /** Reads and checks {@code file}; bad input is one line naming the file, entry and field. */
  public static FaultPlan read(Path file) {
    return FaultPlanReader.read(file);
  }

  /** Where entry {@code spec} is, for messages: "plan.yaml:4: fault 1". */
  public String where(FaultSpec spec) {
    return file + ":" + spec.line() + ": fault " + spec.index();
  }
}
