package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault plan checked against a {@link TestCluster} before any load ({@link FaultPreflight}): what
 * cannot work here is refused in one line naming the plan, the entry and the field.
 */
class FaultPreflightTest {
  private static final int BASE_PORT = 29_100;

  @TempDir Path dir;

  private TestCluster nodes;

  @AfterEach
  void stopNodes() {
    if (nodes != null) {
      nodes.close();
    }
  }

  @Test
  void plansThatCannotWorkOnThisClusterAreRefusedBeforeAnyLoad() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 60);
    String late = refusal(() -> schedule(plan("at: 90s", "action: kill", "target: node 1")));
    assertTrue(
        late.endsWith(": fault 1: field 'at': 90 s is past the end of the measured phase (60 s)"),
        late);

    String missing = refusal(() -> schedule(plan("at: 1s", "action: kill", "target: node 7")));
    assertTrue(
        missing.endsWith(
            "field 'target': no node 7 in the testbroker cluster (its nodes: 1, 2, 3)"),
        missing);

    String leader = refusal(() -> schedule(plan("at: 1s", "action: kill", "target: leader")));
    assertTrue(
        leader.endsWith(
            "field 'target': the testbroker driver cannot name leader; it can name: random, node N"),
        leader);
  }

  @Test
  void aClusterOfOneNodeIsNoPlaceForFaults() throws Exception {
    nodes = new TestCluster(dir, 1, BASE_PORT + 70);
    String refused = refusal(() -> schedule(plan("at: 1s", "action: kill", "target: node 1")));
    assertTrue(
        refused.endsWith(
            ": faults need a cluster, and testbroker has 1 node: start one with deploy/local/testbroker.sh start --nodes 3"),
        refused);
  }

  @Test
  void aTargetTheDriverCannotNameIsRefusedWithTheTargetsItCan() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 80);
    String refused =
        refusal(() -> schedule(plan("at: 1s", "action: kill", "target: bookie"), leaderIsNode(1)));
    assertTrue(
        refused.endsWith(
            ": fault 1: field 'target': the testbroker driver cannot name bookie; it can name: leader (leader of the test), followers, random, node N"),
        refused);
    assertEquals(1, refused.lines().count());
  }

  @Test
  void aCutOfANodeOutsideItsRecordedCgroupIsRefusedBeforeAnyLoad() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 100);
    // Node 2's state file names node 3's cgroup: a cut would match node 3's sockets, not node 2's.
    Path env = nodes.node(2).envFile();
    String cgroup3 = nodes.node(3).cgroup().orElseThrow().toString();
    Files.writeString(
        env, Files.readString(env).replaceAll("(?m)^CGROUP=.*$", "CGROUP=" + cgroup3));
    long pid = nodes.node(2).pid().orElseThrow();

    String refused =
        refusal(
            () -> schedule(plan("at: 1s", "action: isolate", "target: node 2", "duration: 1s")));
    assertTrue(
        refused.contains(
            ": fault 1: field 'action': isolate would cut nothing: node 2 (PID "
                + pid
                + ") runs in cgroup /plumb-test-"
                + nodes.port(2)
                + ", not in /"),
        refused);
    assertTrue(refused.endsWith("a cut would match nothing"), refused);
    // A kill needs no cgroup: the same cluster takes it.
    schedule(plan("at: 1s", "action: kill", "target: node 2")).check(Duration.ofSeconds(60));
  }

  @Test
  void aNodeThatCouldNotJoinACgroupCannotBeCut() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 110);
    TestPlans.withoutCgroup(nodes.node(1));
    String refused =
        refusal(
            () -> schedule(plan("at: 1s", "action: partition", "target: node 3", "duration: 1s")));
    assertTrue(refused.contains(": fault 1: field 'action': partition cannot be done"), refused);
    assertTrue(refused.contains("node 1 runs in no cgroup of its own"));
  }

  private FaultSchedule schedule(FaultPlan plan) {
    return schedule(plan, TestPlans.namesNoNode());
  }

  private FaultSchedule schedule(FaultPlan plan, LeaderSource leaders) {
    return new FaultSchedule(
        plan, nodes.cluster(), leaders, System::nanoTime, line -> {}, FaultSchedule.UNDO_WAIT);
  }

  private FaultPlan plan(String... entry) throws IOException {
    return TestPlans.plan(dir, entry);
  }

  /** The message that refuses {@code schedule} when it is checked against a 60 s run. */
  private static String refusal(ThrowingSupplier<FaultSchedule> schedule) {
    return assertThrows(BadInputException.class, () -> schedule.get().check(Duration.ofSeconds(60)))
        .getMessage();
  }

  private LeaderSource leaderIsNode(int node) {
    return TestPlans.leaderIsNode(nodes, node);
  }
}
