package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.fault.ClusterNode;
import io.plumb.fault.LocalCluster;
import io.plumb.testkit.WholeCluster;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The local 3-node cluster of {@code deploy/local/rabbitmq.sh start --nodes 3}, as its state files
 * ({@code .plumb/rabbitmq/nodes/<n>/node.env}) and its script know it, for the cluster tests.
 */
final class LocalRabbitMqCluster {
  static final int NODES = 3;

  private static final LocalCluster CLUSTER = LocalCluster.of("rabbitmq");

  /**
   * What a cluster test registers ({@code @RegisterExtension}): three nodes checked before its
   * first test, the cluster made whole after its last (the tests stop nodes themselves).
   */
  static final WholeCluster WHOLE_AFTER_ALL_TESTS =
      WholeCluster.afterAllTests(
          LocalRabbitMqCluster::requireThreeNodes, LocalRabbitMqCluster::makeWhole);

  /** Fails the test class unless the state files name 3 nodes and the broker runs all three. */
  static void requireThreeNodes() throws Exception {
    Map<String, String> names = nodeNames();
    assertEquals(
        NODES,
        names.size(),
        "node.env files under "
            + CLUSTER.stateDir()
            + ": "
            + names
            + " (start deploy/local/rabbitmq.sh start --nodes 3)");
    assertEquals(NODES, runningNodes().size(), "running nodes: " + runningNodes());
  }

  /** Node number to the broker's name for it (NAME in node.env: r1@localhost, ...). */
  static Map<String, String> nodeNames() {
    Map<String, String> names = new TreeMap<>();
    for (ClusterNode node : CLUSTER.numberedNodes()) {
      names.put(node.name(), node.values().getOrDefault("NAME", ""));
    }
    return names;
  }

  /** The number of the node the broker calls {@code name}. */
  static String nodeNamed(String name) {
    return nodeNames().entrySet().stream()
        .filter(e -> e.getValue().equals(name))
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseGet(() -> fail(name + " is none of " + nodeNames()));
  }

  /** The number of the node that answers to {@code identity} (its NAME, or one of its ports). */
  static String nodeAnswering(String identity) {
    return CLUSTER.numberedNodes().stream()
        .filter(n -> n.answersTo(identity))
        .map(ClusterNode::name)
        .findFirst()
        .orElseGet(() -> fail(identity + " names none of the nodes " + nodeNames()));
  }

  static void stopNode(String node) throws Exception {
    script("stop-node", node);
  }

  static void startNode(String node) throws Exception {
    script("start-node", node);
  }

  /** Starts every node that is not running (after a test killed or stopped one). */
  static void makeWhole() throws Exception {
    for (ClusterNode node : CLUSTER.numberedNodes()) {
      if (!node.running()) {
        startNode(node.name());
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (runningNodes().size() < NODES && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(500);
    }
    assertEquals(NODES, runningNodes().size(), "running nodes after the test");
  }

  /** The nodes the broker reports running, asked of any node that answers. */
  static List<String> runningNodes() throws IOException, InterruptedException {
    return management().runningNodes();
  }

  /** Every node's management API, tried in turn. */
  static ManagementApi management() {
    return new ManagementApi(
        List.of(
            URI.create("http://127.0.0.1:15672"),
            URI.create("http://127.0.0.1:15673"),
            URI.create("http://127.0.0.1:15674")),
        "guest",
        "guest",
        "/");
  }

  private static void script(String command, String node) throws Exception {
    Process process =
        command(command, node).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (!process.waitFor(300, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail(CLUSTER.script() + " " + command + " " + node + " took over 300 s");
    }
    assertEquals(0, process.exitValue(), CLUSTER.script() + " " + command + " " + node);
  }

  /** Starts {@code rabbitmq.sh COMMAND NODE}; its output and errors are the process's input. */
  static Process launch(String command, String node) throws IOException {
    return command(command, node).start();
  }

  private static ProcessBuilder command(String command, String node) {
    return new ProcessBuilder(CLUSTER.script().toString(), command, node).redirectErrorStream(true);
  }

  private LocalRabbitMqCluster() {}
}
