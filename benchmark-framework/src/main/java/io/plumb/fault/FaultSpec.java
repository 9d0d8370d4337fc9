package io.plumb.fault;

import java.time.Duration;
import java.util.Optional;

/**
 * One entry of a fault plan, as a value: when (from the start of the measured phase), what, to
 * which node, and for how long.
 *
 * @param index the entry's position in the plan, from 1
 * @param line the entry's line in the plan file, for messages
 * @param duration when freeze, isolate and partition are undone and a killed or restarted node is
 *     started again; empty: a killed node stays down until the run ends
 */
public record FaultSpec(
    int index,
    int line,
    Duration at,
    FaultAction action,
    FaultTarget target,
    Optional<Duration> duration) {

  /** "kill leader at 20 s for 10 s", for the console. */
  public String describe() {
    return action.word()
        + " "
        + target
        + " at "
        + Durations.text(at)
        + duration.map(d -> " for " + Durations.text(d)).orElse("");
  }
}
