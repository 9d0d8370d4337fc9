package io.plumb.fault;

import java.util.Optional;

/** Asks the broker, through the run's driver, which node leads the run's topic. */
public interface LeaderSource {
  /** False when the driver cannot tell: plans that name the leader are refused. */
  boolean available();

  /** What "leader" means for the broker, e.g. "leader of partition 0". */
  String meaning();

  /** The broker's name for the leading node now; empty during an election. */
  Optional<String> leader();
}
