package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the schedule and preflight tests give a {@link FaultSchedule} besides a {@link TestCluster}:
 * a plan file of one fault, and brokers that name a leader, or none.
 */
final class TestPlans {
  private TestPlans() {}

  /** A plan file in {@code dir} of one fault, one {@code field: value} entry a line. */
  static FaultPlan plan(Path dir, String... entry) throws IOException {
    Path file = dir.resolve("plan.yaml");
    StringBuilder text = new StringBuilder("faults:\n");
    for (int i = 0; i < entry.length; i++) {
      text.append(i == 0 ? "  - " : "    ").append(entry[i]).append('\n');
    }
    Files.writeString(file, text);
    return FaultPlan.read(file);
  }

  /** A driver that cannot name any node. */
  static LeaderSource namesNoNode() {
    return leaders(Optional.empty(), Map.of());
  }

  /** A broker that names {@code leader} (and so its followers), whatever node that is. */
  static LeaderSource leaders(String leader) {
    return leaders(
        Optional.of(leader),
        Map.of("leader", "leader of the test", "followers", "all but the test's leader"));
  }

  /** A broker that names node {@code node} of {@code nodes} its leader. */
  static LeaderSource leaderIsNode(TestCluster nodes, int node) {
    return leaders("127.0.0.1:" + nodes.port(node));
  }

  /** Empties the node's recorded cgroup, so that no cut of it can be made. */
  static void withoutCgroup(ClusterNode node) throws IOException {
    Path env = node.envFile();
    Files.writeString(env, Files.readString(env).replaceAll("(?m)^CGROUP=.*$", "CGROUP="));
  }

  private static LeaderSource leaders(Optional<String> leader, Map<String, String> targets) {
    return new LeaderSource() {
      @Override
      public Map<String, String> targets() {
        return targets;
      }

      @Override
      public Optional<String> locate(String target) {
        assertEquals("leader", target, "the only role this broker names");
        return leader;
      }
    };
  }
}
