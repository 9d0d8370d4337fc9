package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.stats.PublishTimeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    FaultSchedule schedule = applied("at: 300ms", "action: kill", "target: node 2", "duration: 1s");
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
  void faultsAreTimedFromWhereTheMeasuredPhaseBegan() throws Exception {
    // The measured phase's first period begins where the warm-up's last was taken, before the
    // listeners' work and the announcement that starts the schedule: its faults are timed from
    // there, as the periods are, so that their marks fall where they happened on every timeline.
    nodes = new TestCluster(dir, 3, BASE_PORT + 210);
    FaultSchedule schedule =
        schedule(plan("at: 1s", "action: freeze", "target: node 1", "duration: 200ms"));
    schedule.check(Duration.ofSeconds(30));
    long began = 800_000_000L;
    long before = System.nanoTime();
    schedule.start(began);
    long after = System.nanoTime();

    long start = schedule.measureStart();
    assertTrue(
        start >= before - began && start <= after - began, "measured phase began at " + start);
    awaitUndone(schedule, "thawed");
    schedule.loadStopped();
    long appliedAfter = schedule.records().get(0).appliedAt() - start;
    assertTrue(appliedAfter >= 1_000_000_000L, "applied " + appliedAfter + " ns after it began");
  }

  @Test
  void killingEveryNodeKillsThemAllAndStartsThemAllAgain() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 130);
    List<Long> before =
        List.of(1, 2, 3).stream().map(n -> nodes.node(n).pid().orElseThrow()).toList();
    FaultSchedule schedule = started("at: 0s", "action: kill", "target: all", "duration: 500ms");

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
    schedule.start(0);

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
    FaultSchedule schedule = applied("at: 0s", "action: isolate", "target: node 2", "duration: 4s");

    assertFalse(TestNode.ping(nodes.port(2)), "clients cannot reach node 2");
    assertProbe("unreachable", 1, 2);
    assertTrue(TestNode.ping(nodes.port(1)), "node 1 is untouched");
    assertProbe("reachable", 1, 3);

    awaitUndone(schedule, "reconnected");
    assertTrue(TestNode.ping(nodes.port(2)), "clients reach node 2 again");
    assertProbe("reachable", 1, 2);
    schedule.loadStopped();
  }

  @Test
  void partitionCutsTheNodeOffFromItsPeersWhileClientsStillReachIt() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 30);
    FaultSchedule schedule =
        applied("at: 0s", "action: partition", "target: node 2", "duration: 5s");

    assertTrue(TestNode.ping(nodes.port(2)), "clients still reach node 2");
    assertProbe("unreachable", 1, 2);
    assertProbe("unreachable", 2, 3);
    assertProbe("reachable", 1, 3);

    awaitUndone(schedule, "healed");
    assertProbe("reachable", 1, 2);
    assertProbe("reachable", 2, 3);
    schedule.loadStopped();
  }

  @Test
  void theLeaderIsTheNodeTheBrokerNamesAtTheMomentOfTheFault() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 40);
    long leaderPid = nodes.node(3).pid().orElseThrow();
    FaultSchedule schedule =
        started(leaderIsNode(3), "at: 0s", "action: kill", "target: leader", "duration: 500ms");
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
    schedule.start(0);
    schedule.loadStopped();

    assertFalse(schedule.records().get(0).applied());
    assertEquals("not applied: load stopped first", schedule.records().get(0).error());
    assertTrue(ProcessHandle.of(pid).orElseThrow().isAlive());
  }

  @Test
  void followersAreEveryNumberedNodeButTheOneTheDriversRoleNames() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 90);
    FaultSchedule schedule =
        started(
            leaderIsNode(2), "at: 0s", "action: freeze", "target: followers", "duration: 300ms");
    awaitUndone(schedule, "thawed");
    schedule.loadStopped();
    assertEquals(List.of("1", "3"), schedule.records().get(0).nodes());
    assertEquals("all but the leader of the test", schedule.records().get(0).leaderMeaning());
  }

  @Test
  void aRoleTheBrokerNamesAsNoNodeFailsTheFaultWithItsReason() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 120);
    FaultSchedule schedule =
        started(
            TestPlans.leaders("127.0.0.1:1"),
            "at: 0s",
            "action: kill",
            "target: leader",
            "duration: 1s");
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

  /**
   * Isolating both nodes of two, where node 2's cut cannot be made: node 1's cut is healed at once
   * (its table would otherwise stay in the kernel past the run), and the fault reads as applied to
   * node 1 with the reason it failed.
   */
  @Test
  void aCutThatFailsOnItsSecondNodeIsHealedOnTheFirstAtOnce() throws Exception {
    FaultSchedule schedule = isolateWhereNode2HasNoCgroup(BASE_PORT + 170, "all", "60s");
    try {
      schedule.start(0);
      awaitUndone(schedule, "healed at once");
      assertTrue(TestNode.ping(nodes.port(1)), "clients reach node 1 again");
      schedule.loadStopped();

      FaultRecord record = schedule.records().get(0);
      assertTrue(record.applied(), record.toString());
      assertEquals(List.of("1"), record.nodes());
      assertEquals("node 2 has no cgroup", record.error());
      assertTrue(
          progress.contains("fault 1: reconnected node 1 (the fault failed partway)"),
          progress.toString());
    } finally {
      schedule.loadStopped();
      // Should the cut have outlived the fault, it must not outlive the test.
      new ProcessBuilder("nft", "delete", "table", "inet", "plumb_fault_1_1")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start()
          .waitFor();
    }
  }

  /**
   * A power loss of both nodes whose second drop fails: both nodes were killed, so both start again
   * at once rather than stay down through the drain.
   */
  @Test
  void aPowerLossWhoseDropFailsAfterTheKillStartsEveryNodeAgain() throws Exception {
    Path tool =
        TestCluster.bashScript(
            dir.resolve("plumb-power-loss"),
            "case \"$1 $3\" in \"drop \"*/2/layer.sock) echo 'no such device' >&2; exit 1 ;; esac");
    nodes = new TestCluster(dir, "testbroker", 2, BASE_PORT + 180, tool);
    List<Long> before =
        List.of(nodes.node(1).pid().orElseThrow(), nodes.node(2).pid().orElseThrow());
    FaultSchedule schedule =
        started("at: 0s", "action: power-loss", "target: all", "duration: 60s");

    awaitUndone(schedule, "started again at once");
    schedule.loadStopped();
    FaultRecord record = schedule.records().get(0);
    assertTrue(record.applied(), record.toString());
    assertEquals(List.of("1", "2"), record.nodes());
    assertTrue(
        record.error().startsWith("dropping the unsynced data of node 2 failed with exit 1"),
        record.toString());
    for (int n = 1; n <= 2; n++) {
      assertNotEquals(before.get(n - 1), nodes.node(n).pid().orElseThrow(), "node " + n);
      assertTrue(TestNode.ping(nodes.port(n)), "node " + n + " answers again");
    }
  }

  /** A fault whose first step fails did nothing: it reads as not applied, and cuts no window. */
  @Test
  void aFaultThatFailsBeforeAnyStepTookEffectIsNotApplied() throws Exception {
    FaultSchedule schedule = isolateWhereNode2HasNoCgroup(BASE_PORT + 190, "node 2", "1s");
    schedule.start(0);
    awaitTrue(() -> schedule.records().get(0).error() != null, "failed");
    schedule.loadStopped();

    FaultRecord record = schedule.records().get(0);
    assertFalse(record.applied(), record.toString());
    assertEquals(List.of(), record.nodes());
    assertEquals("node 2 has no cgroup", record.error());
  }

  /**
   * A killed node whose start script has not returned when the wait after load ends: the drain and
   * the final read run with it down, so the fault failed, even if the node comes up later.
   */
  @Test
  void anUndoStillRunningWhenTheWaitEndsFailsTheFault() throws Exception {
    nodes = new TestCluster(dir, 3, BASE_PORT + 220);
    Path release = dir.resolve("release");
    Path script = nodes.cluster().script();
    Path slowStart =
        TestCluster.bashScript(
            dir.resolve("slow-start.sh"),
            "if [ \"$1\" = start-node ]; then",
            "  while [ ! -e " + release + " ]; do sleep 0.05; done",
            "fi",
            "exec " + script + " \"$@\"");
    LocalCluster cluster = new LocalCluster("testbroker", nodes.cluster().stateDir(), slowStart);
    FaultSchedule schedule =
        new FaultSchedule(
            plan("at: 0s", "action: kill", "target: node 1", "duration: 60s"),
            cluster,
            TestPlans.namesNoNode(),
            System::nanoTime,
            progress::add,
            Duration.ofMillis(300));
    schedule.start(0);
    awaitApplied(schedule);
    try {
      schedule.loadStopped();

      FaultRecord record = schedule.records().get(0);
      assertEquals(0, record.undoneAt(), record.toString());
      assertEquals(
          "undoing: not finished 300 ms after load stopped (node 1 may not be started again)",
          record.error());
      assertTrue(progress.contains("fault 1: " + record.error()), progress.toString());
      FaultFigures figures =
          FaultAnalysis.figures(
              schedule.plan(),
              schedule.records(),
              schedule.measureStart(),
              new PublishTimeline(1_000_000_000L).snapshot(),
              List.of(),
              0,
              0);
      assertEquals(
          Optional.of("fault 1 (kill node 1) failed: " + record.error()),
          FaultFailures.reason(figures.faults()),
          "the run's faultFailure and exit status");
    } finally {
      Files.createFile(release);
    }
    // Started again after all: the record says so, and still that the wait ran out first.
    awaitUndone(schedule, "started again once released");
    assertTrue(schedule.records().get(0).error().startsWith("undoing: not finished"));
    assertTrue(TestNode.ping(nodes.port(1)), "node 1 answers again");
  }

  /** A schedule of {@code plan} on the test's cluster, for a driver that cannot name any node. */
  private FaultSchedule schedule(FaultPlan plan) {
    return schedule(plan, TestPlans.namesNoNode());
  }

  private FaultSchedule schedule(FaultPlan plan, LeaderSource leaders) {
    return new FaultSchedule(
        plan, nodes.cluster(), leaders, System::nanoTime, progress::add, FaultSchedule.UNDO_WAIT);
  }

  /** What node {@code from}'s probe of node {@code to} finds: reachable or unreachable. */
  private void assertProbe(String expected, int from, int to) {
    assertEquals(
        expected,
        TestNode.probe(nodes.port(from), nodes.port(to)),
        "node " + from + " to node " + to);
  }

  private FaultPlan plan(String... entry) throws IOException {
    return TestPlans.plan(dir, entry);
  }

  /** A broker that names node {@code node} its leader. */
  private LeaderSource leaderIsNode(int node) {
    return TestPlans.leaderIsNode(nodes, node);
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

  /**
   * A schedule, not started, of one isolate of {@code target} for {@code duration} at 0 s, on a
   * cluster of two nodes from {@code port} whose node 2 has no cgroup, so that its cut cannot be
   * made. Not checked: the check would refuse node 2, and the failure must come at the fault.
   */
  private FaultSchedule isolateWhereNode2HasNoCgroup(int port, String target, String duration)
      throws Exception {
    nodes = new TestCluster(dir, 2, port);
    TestPlans.withoutCgroup(nodes.node(2));
    return schedule(
        plan("at: 0s", "action: isolate", "target: " + target, "duration: " + duration));
  }

  /** A schedule of {@code entry}, checked and started, once its first fault is applied. */
  private FaultSchedule applied(String... entry) throws Exception {
    FaultSchedule schedule = started(entry);
    awaitApplied(schedule);
    return schedule;
  }

  /** A schedule of {@code entry}, checked against a 30 s run as before any load, then started. */
  private FaultSchedule started(String... entry) throws Exception {
    return started(TestPlans.namesNoNode(), entry);
  }

  /** The same with {@code leaders} naming the roles a target may take. */
  private FaultSchedule started(LeaderSource leaders, String... entry) throws Exception {
    FaultSchedule schedule = schedule(plan(entry), leaders);
    schedule.check(Duration.ofSeconds(30));
    schedule.start(0);
    return schedule;
  }

  private static void awaitApplied(FaultSchedule schedule) throws Exception {
    awaitTrue(() -> schedule.records().get(0).applied(), "applied");
  }

  /** Waits until the first fault is undone; {@code what} names that moment on failure. */
  private static void awaitUndone(FaultSchedule schedule, String what) throws Exception {
    awaitTrue(() -> schedule.records().get(0).undoneAt() != 0, what);
  }

  /** Waits, up to 20 s, for {@code condition}: the schedule acts on its own threads. */
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
