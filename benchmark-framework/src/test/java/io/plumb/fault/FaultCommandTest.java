package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.cli.CapturedConsole;
import io.plumb.driver.DaemonThreads;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.WorkloadYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/benchmark --faults}: refusals before any load, and a whole run against the loopback
 * driver with its "cluster" of {@link TestNode} processes, from plan to result file.
 */
@Tag("host-timing")
class FaultCommandTest {
  @TempDir Path dir;

  private final CapturedConsole cli = new CapturedConsole();
  private TestCluster nodes;

  @AfterEach
  void cleanUp() {
    System.clearProperty("plumb.home");
    if (nodes != null) {
      nodes.close();
    }
  }

  @Test
  void aFaultPlanRunsBesideTheLoadAndEachFaultLandsInTheResult() throws Exception {
    Path home = startThreeNodes(28_800);
    long victim = nodes.node(2).pid().orElseThrow();
    Path result = dir.resolve("result.json");

    int status = runPlan("  - {at: 1s, action: kill, target: node 2, duration: 500ms}", result, 3);

    assertEquals(0, status, cli.err());
    assertFalse(ProcessHandle.of(victim).map(ProcessHandle::isAlive).orElse(false));
    assertTrue(nodes.node(2).running(), "started again after its duration");
    JsonNode fault = new ObjectMapper().readTree(result.toFile()).path("faults").path(0);
    assertEquals("kill", fault.path("action").asText());
    assertEquals("2", fault.path("nodes").path(0).asText());
    assertEquals(1.0, fault.path("appliedSeconds").asDouble(), 0.3);
    assertTrue(fault.path("undoneSeconds").asDouble() >= 1.5, fault.toString());
    // The loopback broker never noticed: nothing stalled, nothing lost.
    assertTrue(fault.path("unavailableSeconds").isNull(), fault.toString());
    assertEquals(0, fault.path("acknowledgedLost").asLong());
    assertTrue(fault.path("error").isNull(), fault.toString());
    assertFalse(new ObjectMapper().readTree(result.toFile()).has("faultFailure"));
    // Per partition, from actual send times: every partition kept acknowledging.
    JsonNode unavailability = fault.path("unavailability");
    assertEquals(0, unavailability.path("partitionsAffected").asInt(), unavailability.toString());
    assertTrue(
        unavailability.path("worstPartition").asText().matches(".+/[0-9]+"),
        "the loopback driver names partitions: " + unavailability);
    assertTrue(
        unavailability.path("goodput").path("acknowledgedPerSecond").size() > 0,
        unavailability.toString());
    // (Recovery is not asserted: restarting a node's JVM on a small host can slow the generator.)
    assertTrue(fault.has("recoverySeconds"), fault.toString());
    String console = cli.out();
    assertTrue(console.contains("fault 1: kill node 2 for 500 ms"), console);
    assertTrue(console.contains("Fault 1      kill node 2 at "), console);
    assertTrue(console.contains("| unavailable worst partition "), console);
    assertTrue(console.contains(", 0 partitions affected (over "), console);
  }

  /**
   * The node a fault names is gone by the time the fault is due (killed by the test once the plan
   * was checked): the fault cannot be applied, so the run ends with status 4 and one line, and its
   * result is written and marked.
   */
  @Test
  void aFaultThatCannotBeAppliedFailsTheRunWithItsOneLineReason() throws Exception {
    Path home = startThreeNodes(28_850);
    long victim = nodes.node(2).pid().orElseThrow();
    Path result = dir.resolve("result.json");
    DaemonThreads.start(
        "plumb-test-node-killer",
        () -> {
          // The plan is checked (all nodes running) before this line is printed, and the
          // fault is due 1 s of warm-up and 2 s of measuring later.
          try {
            while (!cli.out().contains("fault plan ")) {
              Thread.sleep(20);
            }
          } catch (InterruptedException e) {
            return;
          }
          ProcessHandle.of(victim).ifPresent(ProcessHandle::destroyForcibly);
        });

    int status = runPlan("  - {at: 2s, action: kill, target: node 2, duration: 500ms}", result, 4);

    String console = cli.out();
    assertEquals(FaultFailures.EXIT_STATUS, status, console + cli.err());
    String reason =
        "fault 1 (kill node 2) was not applied: node 2 is gone (PID " + victim + " is not running)";
    List<String> errorLines = console.lines().filter(l -> l.startsWith("error: ")).toList();
    assertEquals(List.of("error: " + reason), errorLines, console);
    JsonNode json = new ObjectMapper().readTree(result.toFile());
    assertEquals(reason, json.path("faultFailure").asText(), json.path("faults").toString());
    assertTrue(json.path("faults").path(0).path("appliedSeconds").isNull());
    assertTrue(json.path("complete").asBoolean(), "the load itself ran to its end");
    // The report's summary says so where users look first.
    Path page = dir.resolve("report.html");
    assertEquals(0, cli.run("report", result.toString(), "-o", page.toString()), cli.err());
    assertTrue(Files.readString(page).contains("FAULT FAILED: " + reason), "report");
  }

  @Test
  void aPowerLossWithoutTheLayerIsRefusedBeforeAnyLoad() throws Exception {
    Path home = startThreeNodes(28_900);
    assertPlanRefused(
        ": fault 1: field 'action': power-loss needs the power-loss layer under every node's data,"
            + " and loopback node 1 has none: start the cluster with "
            + home.resolve("deploy/local/loopback.sh")
            + " start --nodes N --power-loss-layer",
        "  - {at: 1s, action: power-loss, target: all, duration: 500ms}");
    assertFalse(cli.out().contains("warm-up"), "no load was sent");
  }

  /**
   * A power loss of all nodes: every node is killed before any layer drops (the layer's program
   * here records, at each drop, how many of the nodes' processes were still alive), then every node
   * starts again.
   */
  @Test
  void aPowerLossOfAllNodesKillsEveryNodeBeforeAnyLayerDropsAndStartsThemAgain() throws Exception {
    Path home = dir.resolve("home");
    Path calls = dir.resolve("layer-calls.log");
    Path tool = fakeLayerTool(home, calls);
    nodes = new TestCluster(home, "loopback", 3, 28_950, tool);
    System.setProperty("plumb.home", home.toString());
    List<Long> before =
        List.of(1, 2, 3).stream().map(n -> nodes.node(n).pid().orElseThrow()).toList();
    Path result = dir.resolve("result.json");

    int status =
        runPlan("  - {at: 1s, action: power-loss, target: all, duration: 500ms}", result, 3);

    assertEquals(0, status, cli.err());
    List<String> drops =
        Files.readAllLines(calls).stream().filter(l -> l.startsWith("drop ")).toList();
    assertEquals(3, drops.size(), drops.toString());
    for (String drop : drops) {
      assertTrue(drop.endsWith(" alive=0"), "a layer dropped while a node still ran: " + drops);
    }
    assertEquals(
        3,
        Files.readAllLines(calls).stream().filter(l -> l.startsWith("status ")).count(),
        "the plan's check asked every node's layer first");
    for (int n = 1; n <= 3; n++) {
      assertTrue(nodes.node(n).running(), "node " + n + " started again");
      assertFalse(ProcessHandle.of(before.get(n - 1)).map(ProcessHandle::isAlive).orElse(false));
    }
    JsonNode fault = new ObjectMapper().readTree(result.toFile()).path("faults").path(0);
    assertEquals("power-loss", fault.path("action").asText());
    assertEquals("all", fault.path("target").asText());
    assertEquals(3, fault.path("nodes").size(), fault.toString());
    assertTrue(fault.path("error").isNull(), fault.toString());
    assertTrue(cli.out().contains("fault 1: power-loss node 1, node 2, node 3"), cli.out());
  }

  /**
   * A node whose script recorded that it keeps no data (a Pulsar broker) has no layer and needs
   * none: a power loss of all kills it with the others, drops the layers of the others only, and
   * starts it again; the console says it lost nothing a kill would not.
   */
  @Test
  void aPowerLossKillsANodeThatKeepsNoDataAndDropsNothingForIt() throws Exception {
    Path home = dir.resolve("home");
    Path calls = dir.resolve("layer-calls.log");
    Path tool = fakeLayerTool(home, calls);
    nodes = new TestCluster(home, "loopback", 3, 29_000, tool, Map.of(3, "POWER_LOSS_NO_DATA=1\n"));
    System.setProperty("plumb.home", home.toString());
    long dataless = nodes.node(3).pid().orElseThrow();
    Path result = dir.resolve("result.json");

    int status =
        runPlan("  - {at: 1s, action: power-loss, target: all, duration: 500ms}", result, 3);

    assertEquals(0, status, cli.err());
    Path nodesDir = home.resolve(".plumb/loopback/nodes");
    List<String> layerCalls = Files.readAllLines(calls);
    assertEquals(
        List.of(
            "drop " + nodesDir.resolve("1/layer.sock") + " alive=0",
            "drop " + nodesDir.resolve("2/layer.sock") + " alive=0"),
        layerCalls.stream().filter(l -> l.startsWith("drop ")).toList(),
        "only the layered nodes drop, once every node (node 3 too) is dead");
    assertEquals(
        2,
        layerCalls.stream().filter(l -> l.startsWith("status ")).count(),
        "the plan's check asked the two layers: " + layerCalls);
    assertFalse(ProcessHandle.of(dataless).map(ProcessHandle::isAlive).orElse(false));
    assertTrue(nodes.node(3).running(), "node 3 started again");
    JsonNode fault = new ObjectMapper().readTree(result.toFile()).path("faults").path(0);
    assertEquals(3, fault.path("nodes").size(), fault.toString());
    assertTrue(fault.path("error").isNull(), fault.toString());
    String console = cli.out();
    assertTrue(
        console.contains(
            "fault 1: power-loss node 1, node 2, node 3 for 500 ms; node 3 keeps no data: killed,"
                + " nothing to drop"),
        console);
  }

  /**
   * Only a node whose script says it keeps no data may go without a layer: in a cluster whose other
   * nodes have one, a node with neither is refused as before any load, naming it.
   */
  @Test
  void aNodeWithNeitherALayerNorNoDataIsRefusedAmongLayeredOnes() throws Exception {
    Path home = dir.resolve("home");
    Path tool = fakeLayerTool(home, dir.resolve("layer-calls.log"));
    nodes = new TestCluster(home, "loopback", 3, 29_050, tool, Map.of(3, ""));
    System.setProperty("plumb.home", home.toString());
    assertPlanRefused(
        ": fault 1: field 'action': power-loss needs the power-loss layer under every node's data,"
            + " and loopback node 3 has none: start the cluster with "
            + home.resolve("deploy/local/loopback.sh")
            + " start --nodes N --power-loss-layer",
        "  - {at: 1s, action: power-loss, target: all, duration: 500ms}");
    assertTrue(nodes.node(3).running(), "nothing was killed");
  }

  /** Only the value 1 marks a node without data: any other says nothing of the kind. */
  @Test
  void onlyPowerLossNoDataOneMarksANodeWithoutData() {
    Path env = dir.resolve("node.env");
    assertTrue(node(env, Map.of("POWER_LOSS_NO_DATA", "1")).keepsNoData());
    assertFalse(node(env, Map.of("POWER_LOSS_NO_DATA", "0")).keepsNoData());
    assertFalse(node(env, Map.of("POWER_LOSS_NO_DATA", "yes")).keepsNoData());
    assertFalse(node(env, Map.of()).keepsNoData());
  }

  private static ClusterNode node(Path env, Map<String, String> values) {
    return new ClusterNode("broker", env, values);
  }

  /**
   * A stand-in for plumb-power-loss that records each call (its command and control socket) and how
   * many of the cluster's node processes were alive at that moment.
   */
  private Path fakeLayerTool(Path home, Path calls) throws IOException {
    return TestCluster.bashScript(
        dir.resolve("plumb-power-loss"),
        "alive=0",
        "for env in " + home.resolve(".plumb/loopback/nodes") + "/*/node.env; do",
        "  pid=$(sed -n 's/^PID=//p' \"$env\")",
        "  if kill -0 \"$pid\" 2>/dev/null; then alive=$((alive + 1)); fi",
        "done",
        "echo \"$1 $3 alive=$alive\" >>" + calls);
  }

  @Test
  void withoutAClusterThePlanIsRefusedBeforeAnyLoad() throws IOException {
    Path home = dir.resolve("empty-home");
    Files.createDirectories(home.resolve("deploy/local"));
    System.setProperty("plumb.home", home.toString());
    assertPlanRefused(
        ": faults need a cluster, and loopback has no node recorded in "
            + home.resolve(".plumb/loopback")
            + ": start one with deploy/local/loopback.sh start --nodes 3",
        "  - {at: 1s, action: kill, target: node 1}");
  }

  @Test
  void optionsThatCannotJoinAFaultPlanAreRefused() throws IOException {
    String kill = "  - {at: 1s, action: kill, target: node 1}";
    assertPlanRefused(
        "--faults: applies to single fixed-rate runs; drop --rates", kill, "--rates", "1k,2k");
    cli.clearErr();
    assertPlanRefused(
        "--faults: needs the in-process worker, on the host whose cluster it acts on; drop --workers",
        kill,
        "--workers",
        "http://127.0.0.1:9,http://127.0.0.1:10",
        "--worker-roles",
        "both");
    cli.clearErr();
    assertPlanRefused(
        "fault 1: field 'action': 'crash' is not an action",
        "  - {at: 1s, action: crash, target: node 1}");
    cli.clearErr();
    Path backlog =
        WorkloadYaml.oneTopic()
            .messageSize(64)
            .rate(1000)
            .seconds(3)
            .with("consumerBacklogSizeGB: 1\n")
            .writeTo(dir.resolve("backlog.yaml"));
    assertBadInput(
        "--faults: "
            + backlog
            + " builds a backlog (consumerBacklogSizeGB); faults need a steady-state workload",
        "--faults",
        plan(kill).toString(),
        "-d",
        LoopbackDriverFile.write(dir).toString(),
        backlog.toString());
  }

  /**
   * Starts a loopback "cluster" of three nodes on ports from {@code basePort}, under a home of its
   * own that bin/benchmark then looks in; returns that home.
   */
  private Path startThreeNodes(int basePort) throws Exception {
    Path home = dir.resolve("home");
    nodes = new TestCluster(home, "loopback", 3, basePort);
    System.setProperty("plumb.home", home.toString());
    return home;
  }

  /** Runs the loopback workload for {@code seconds} with a plan of {@code entry}. */
  private int runPlan(String entry, Path result, int seconds) throws IOException {
    return cli.run(
        "--faults",
        plan(entry).toString(),
        "-o",
        result.toString(),
        "-d",
        LoopbackDriverFile.write(dir).toString(),
        workload(seconds).toString());
  }

  /**
   * A plan of {@code entry}, with {@code options} after it, is refused with {@code expected},
   * before any load.
   */
  private void assertPlanRefused(String expected, String entry, String... options)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("--faults", plan(entry).toString()));
    args.addAll(List.of(options));
    args.addAll(List.of("-d", LoopbackDriverFile.write(dir).toString(), workload(3).toString()));
    assertBadInput(expected, args.toArray(new String[0]));
  }

  private void assertBadInput(String expected, String... args) {
    assertEquals(2, cli.run(args), cli.err());
    String message = cli.err();
    assertTrue(message.contains(expected), message);
    assertEquals(1, message.lines().count(), message);
  }

  private Path plan(String entry) throws IOException {
    Path file = dir.resolve("plan.yaml");
    Files.writeString(file, "faults:\n" + entry + "\n");
    return file;
  }

  private Path workload(int seconds) throws IOException {
    return WorkloadYaml.oneTopic()
        .messageSize(64)
        .rate(1000)
        .seconds(seconds)
        .warmup(1)
        .writeTo(dir.resolve("w.yaml"));
  }
}
