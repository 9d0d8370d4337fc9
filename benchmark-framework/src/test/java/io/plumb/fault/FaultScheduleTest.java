package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault schedules against real processes: a three-node {@link TestCluster} whose nodes listen on
 * loopback, each in a cgroup of its own. Kills, freezes and network cuts are checked by what the
 * processes and their sockets do, not by what the schedule says it did.
 */
class FaultScheduleTest {
  private static final int BASE_PORT = 28_700;

  @TempDir Path dir;

  private TestCluster nodes;
  private final List<String> progress = new ArrayList<>();

  @AfterEach
  void stopNodes() {
    if (nodes != null) {
      nodes.close();
    }
  }

  @Test
  void aKilledNodeDiesAtItsTimeAndIsStartedAgainAfterItsDuration() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT);
    long before = nodes.node(2).pid().orElseThrow();
    FaultSchedule schedule =
        schedule(plan("at: 300ms", "action: kill", "target: node 2", "duration: 1s"));
    checkAndStart(schedule);

    awaitApplied(schedule);
    awaitTrue(() -> ProcessHandle.of(before).map(p -> !p.isAlive()).orElse(true), "killed");
    assertFalse(TestNode.ping(nodes.port(2)), "a killed node answers nothing");
    awaitUndone(schedule, "started again");
    long after = nodes.node(2).pid().orElseThrow();
    assertNotEquals(before, after);
    assertTrue(TestNode.ping(nodes.port(2)), "node 2 answers again");
    schedule.loadStopped();

    FaultRecord record = schedule.records().get(0);
    assertEquals(List.of("2"), record.nodes());
    long appliedAfter = record.appliedAt() - schedule.measureStart();
    assertTrue(
        appliedAfter >= 300_000_000L && appliedAfter < 1_000_000_000L,
        "applied after " + appliedAfter);
    assertTrue(record.undoneAt() - record.appliedAt() >= 1_000_000_000L, record.toString());
    assertNull(record.error());
  }

  @Test
  void killingEveryNodeKillsThemAllAndStartsThemAllAgain() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 130);
    List<Long> before =
        List.of(1, 2, 3).stream().map(n -> nodes.node(n).pid().orElseThrow()).toList();
    FaultSchedule schedule =
        schedule(plan("at: 0s", "action: kill", "target: all", "duration: 500ms"));
    checkAndStart(schedule);

    awaitUndone(schedule, "started again");
    schedule.loadStopped();
    FaultRecord record = schedule.records().get(0);
    assertNull(record.error());
    assertEquals(List.of("1", "2", "3"), record.nodes());
    for (int n = 1; n <= 3; n++) {
      long old = before.get(n - 1);
      assertFalse(ProcessHandle.of(old).map(ProcessHandle::isAlive).orElse(false), "node " + n);
      assertNotEquals(old, nodes.node(n).pid().orElseThrow());
      assertTrue(TestNode.ping(nodes.port(n)), "node " + n + " answers again");
    }
  }

  @Test
  void aFrozenNodeIsStoppedUntilItsDurationEndsThenRunsOn() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 10);
    long pid = nodes.node(1).pid().orElseThrow();
    FaultSchedule schedule =
        schedule(plan("at: 0s", "action: freeze", "target: node 1", "duration: 2s"));
    schedule.start();

    awaitApplied(schedule);
    awaitTrue(() -> state(pid) == 'T', "stopped");
    assertFalse(TestNode.ping(nodes.port(1)), "a frozen node answers nothing");
    awaitUndone(schedule, "thawed");
    assertNotEquals('T', state(pid));
    assertTrue(TestNode.ping(nodes.port(1)), "the same process answers again");
    assertEquals(pid, nodes.node(1).pid().orElseThrow());
    schedule.loadStopped();
  }

  @Test
  void isolateCutsTheNodeOffFromPeersAndClientsAndHealsAfterItsDuration() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 20);
    FaultSchedule schedule =
        schedule(plan("at: 0s", "action: isolate", "target: node 2", "duration: 4s"));
    checkAndStart(schedule);
    awaitApplied(schedule);

    assertFalse(TestNode.ping(nodes.port(2)), "clients cannot reach node 2");
    assertEquals("unreachable", TestNode.probe(nodes.port(1), nodes.port(2)), "node 1 to node 2");
    assertTrue(TestNode.ping(nodes.port(1)), "node 1 is untouched");
    assertEquals("reachable", TestNode.probe(nodes.port(1), nodes.port(3)), "node 1 to node 3");

    awaitUndone(schedule, "reconnected");
    assertTrue(TestNode.ping(nodes.port(2)), "clients reach node 2 again");
    assertEquals("reachable", TestNode.probe(nodes.port(1), nodes.port(2)));
    schedule.loadStopped();
  }

  @Test
  void partitionCutsTheNodeOffFromItsPeersWhileClientsStillReachIt() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 30);
    FaultSchedule schedule =
        schedule(plan("at: 0s", "action: partition", "target: node 2", "duration: 5s"));
    checkAndStart(schedule);
    awaitApplied(schedule);

    assertTrue(TestNode.ping(nodes.port(2)), "clients still reach node 2");
    assertEquals("unreachable", TestNode.probe(nodes.port(1), nodes.port(2)), "node 1 to node 2");
    assertEquals("unreachable", TestNode.probe(nodes.port(2), nodes.port(3)), "node 2 to node 3");
    assertEquals("reachable", TestNode.probe(nodes.port(1), nodes.port(3)), "node 1 to node 3");

    awaitUndone(schedule, "healed");
    assertEquals("reachable", TestNode.probe(nodes.port(1), nodes.port(2)));
    assertEquals("reachable", TestNode.probe(nodes.port(2), nodes.port(3)));
    schedule.loadStopped();
  }

  @Test
  void theLeaderIsTheNodeTheBrokerNamesAtTheMomentOfTheFault() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 40);
    long leaderPid = nodes.node(3).pid().orElseThrow();
    LeaderSource broker = leaders(Optional.of("127.0.0.1:" + nodes.port(3)));
    FaultSchedule schedule =
        new FaultSchedule(
            plan("at: 0s", "action: kill", "target: leader", "duration: 500ms"),
            nodes.cluster(),
            broker,
            System::nanoTime,
            progress::add);
    checkAndStart(schedule);
    awaitUndone(schedule, "done");
    schedule.loadStopped();

    FaultRecord record = schedule.records().get(0);
    assertEquals(List.of("3"), record.nodes());
    assertEquals("leader of the test", record.leaderMeaning());
    assertTrue(ProcessHandle.of(leaderPid).map(p -> !p.isAlive()).orElse(true));
    assertTrue(
        progress.get(0).contains("node 3 (leader: leader of the test)"), progress.toString());
  }

  @Test
  void faultsNotYetDueWhenLoadStopsAreNeverApplied() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 50);
    long pid = nodes.node(1).pid().orElseThrow();
    FaultSchedule schedule = schedule(plan("at: 20s", "action: kill", "target: node 1"));
    schedule.start();
    schedule.loadStopped();

    assertFalse(schedule.records().get(0).applied());
    assertEquals("not applied: load stopped first", schedule.records().get(0).error());
    assertTrue(ProcessHandle.of(pid).orElseThrow().isAlive());
  }

  @Test
  void plansThatCannotWorkOnThisClusterAreRefusedBeforeAnyLoad() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 60);
    BadInputException late =
        assertThrows(
            BadInputException.class,
            () ->
                schedule(plan("at: 90s", "action: kill", "target: node 1"))
                    .check(Duration.ofSeconds(60)));
    assertTrue(
        late.getMessage()
            .endsWith(": fault 1: field 'at': 90 s is past the end of the measured phase (60 s)"),
        late.getMessage());

    BadInputException missing =
        assertThrows(
            BadInputException.class,
            () ->
                schedule(plan("at: 1s", "action: kill", "target: node 7"))
                    .check(Duration.ofSeconds(60)));
    assertTrue(
        missing
            .getMessage()
            .endsWith("field 'target': no node 7 in the testbroker cluster (its nodes: 1, 2, 3)"),
        missing.getMessage());

    BadInputException leader =
        assertThrows(
            BadInputException.class,
            () ->
                new FaultSchedule(
                        plan("at: 1s", "action: kill", "target: leader"),
                        nodes.cluster(),
                        leaders(null),
                        System::nanoTime,
                        progress::add)
                    .check(Duration.ofSeconds(60)));
    assertTrue(
        leader
            .getMessage()
            .endsWith(
                "field 'target': the testbroker driver cannot name leader; it can name: random, node N"),
        leader.getMessage());
  }

  @Test
  void aClusterOfOneNodeIsNoPlaceForFaults() throws Exception {
    nodes = new TestCluster(dir, 1, BASE_PORT + 70);
    BadInputException refused =
        assertThrows(
            BadInputException.class,
            () ->
                schedule(plan("at: 1s", "action: kill", "target: node 1"))
                    .check(Duration.ofSeconds(60)));
    assertTrue(
        refused
            .getMessage()
            .endsWith(
                ": faults need a cluster, and testbroker has 1 node: start one with deploy/local/testbroker.sh start --nodes 3"),
        refused.getMessage());
  }

  @Test
  void aTargetTheDriverCannotNameIsRefusedWithTheTargetsItCan() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 80);
    BadInputException refused =
        assertThrows(
            BadInputException.class,
            () ->
                new FaultSchedule(
                        plan("at: 1s", "action: kill", "target: bookie"),
                        nodes.cluster(),
                        leaders(Optional.of("127.0.0.1:" + nodes.port(1))),
                        System::nanoTime,
                        progress::add)
                    .check(Duration.ofSeconds(60)));
    assertTrue(
        refused
            .getMessage()
            .endsWith(
                ": fault 1: field 'target': the testbroker driver cannot name bookie; it can name: leader (leader of the test), followers, random, node N"),
        refused.getMessage());
    assertEquals(1, refused.getMessage().lines().count());
  }

  @Test
  void followersAreEveryNumberedNodeButTheOneTheDriversRoleNames() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 90);
    FaultSchedule schedule =
        new FaultSchedule(
            plan("at: 0s", "action: freeze", "target: followers", "duration: 300ms"),
            nodes.cluster(),
            leaders(Optional.of("127.0.0.1:" + nodes.port(2))),
            System::nanoTime,
            progress::add);
    checkAndStart(schedule);
    awaitUndone(schedule, "thawed");
    schedule.loadStopped();
    assertEquals(List.of("1", "3"), schedule.records().get(0).nodes());
    assertEquals("all but the leader of the test", schedule.records().get(0).leaderMeaning());
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

    BadInputException refused =
        assertThrows(
            BadInputException.class,
            () ->
                schedule(plan("at: 1s", "action: isolate", "target: node 2", "duration: 1s"))
                    .check(Duration.ofSeconds(60)));
    assertTrue(
        refused
            .getMessage()
            .contains(
                ": fault 1: field 'action': isolate would cut nothing: node 2 (PID "
                    + pid
                    + ") runs in cgroup /plumb-test-2, not in /"),
        refused.getMessage());
    assertTrue(refused.getMessage().endsWith("a cut would match nothing"), refused.getMessage());
    // A kill needs no cgroup: the same cluster takes it.
    schedule(plan("at: 1s", "action: kill", "target: node 2")).check(Duration.ofSeconds(60));
  }

  @Test
  void aNodeThatCouldNotJoinACgroupCannotBeCut() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 110);
    Path env = nodes.node(1).envFile();
    Files.writeString(env, Files.readString(env).replaceAll("(?m)^CGROUP=.*$", "CGROUP="));
    BadInputException refused =
        assertThrows(
            BadInputException.class,
            () ->
                schedule(plan("at: 1s", "action: partition", "target: node 3", "duration: 1s"))
                    .check(Duration.ofSeconds(60)));
    assertTrue(
        refused.getMessage().contains(": fault 1: field 'action': partition cannot be done"),
        refused.getMessage());
    assertTrue(refused.getMessage().contains("node 1 runs in no cgroup of its own"));
  }

  @Test
  void aRoleTheBrokerNamesAsNoNodeFailsTheFaultWithItsReason() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 120);
    FaultSchedule schedule =
        new FaultSchedule(
            plan("at: 0s", "action: kill", "target: leader", "duration: 1s"),
            nodes.cluster(),
            leaders(Optional.of("127.0.0.1:1")),
            System::nanoTime,
            progress::add);
    checkAndStart(schedule);
    awaitTrue(() -> schedule.records().get(0).error() != null, "failed");
    schedule.loadStopped();
    FaultRecord record = schedule.records().get(0);
    assertFalse(record.applied());
    assertEquals(
        "the broker named 127.0.0.1:1 as leader of the test, which is no node of the cluster's state files",
        record.error());
    for (int node = 1; node <= 3; node++) {
      assertTrue(nodes.node(node).running(), "node " + node + " untouched");
    }
  }

  private FaultSchedule schedule(FaultPlan plan) {
    return new FaultSchedule(plan, nodes.cluster(), leaders(null), System::nanoTime, progress::add);
  }

  private FaultPlan plan(String... entry) throws IOException {
    Path file = dir.resolve("plan.yaml");
    StringBuilder text = new StringBuilder("faults:\n");
    for (int i = 0; i < entry.length; i++) {
      text.append(i == 0 ? "  - " : "    ").append(entry[i]).append('\n');
    }
    Files.writeString(file, text);
    return FaultPlan.read(file);
  }

  /**
   * A broker that names {@code leader} (and so its followers); null: a driver that cannot name any
   * node.
   */
  private static LeaderSource leaders(Optional<String> leader) {
    return new LeaderSource() {
      @Override
      public Map<String, String> targets() {
        return leader == null
            ? Map.of()
            : Map.of("leader", "leader of the test", "followers", "all but the test's leader");
      }

      @Override
      public Optional<String> locate(String target) {
        assertEquals("leader", target, "the only role this broker names");
        return leader;
      }
    };
  }

  /** The process's state letter from /proc: 'T' while stopped. */
  private static char state(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2);
    } catch (IOException e) {
      return '?';
    }
  }

  /** Waits, up to 20 s, for {@code condition}: the schedule acts on its own threads. */
  /** Checks the plan against a 30 s run, as before any load, then starts it. */
  private static void checkAndStart(FaultSchedule schedule) throws Exception {
    schedule.check(Duration.ofSeconds(30));
    schedule.start();
  }

  private static void awaitApplied(FaultSchedule schedule) throws Exception {
    awaitTrue(() -> schedule.records().get(0).applied(), "applied");
  }

  /** Waits until the first fault is undone; {@code what} names that moment on failure. */
  private static void awaitUndone(FaultSchedule schedule, String what) throws Exception {
    awaitTrue(() -> schedule.records().get(0).undoneAt() != 0, what);
  }

  private static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not " + what + " within 20 s");
      }
      Thread.sleep(20);
    }
  }
}
