package io.plumb.fault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The fault plans the analysis tests judge: kills, for some seconds each, in a plan whose stall
 * limit is 1 s and whose faults must end within 30 s.
 */
final class TestKills {
  private TestKills() {}

  /** Fault 1, on line 3: the leader killed at 10 s for 5 s. */
  static FaultSpec leaderAtTenSeconds() {
    return new FaultSpec(
        1,
        3,
        Duration.ofSeconds(10),
        FaultAction.KILL,
        new FaultTarget(FaultTarget.Kind.LEADER, Optional.empty()),
        Optional.of(Duration.ofSeconds(5)));
  }

  /** Fault {@code index}, on line {@code line}: {@code node} killed for some seconds. */
  static FaultSpec node(int index, int line, String node, int atSeconds, int forSeconds) {
    return new FaultSpec(
        index,
        line,
        Duration.ofSeconds(atSeconds),
        FaultAction.KILL,
        new FaultTarget(FaultTarget.Kind.NODE, Optional.of(node)),
        Optional.of(Duration.ofSeconds(forSeconds)));
  }

  static FaultPlan plan(FaultSpec... faults) {
    return new FaultPlan(
        Path.of("plan.yaml"), Duration.ofSeconds(1), Duration.ofSeconds(30), List.of(faults));
  }
}
