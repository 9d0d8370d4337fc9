package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.fault.LocalCluster;
import io.plumb.testkit.NodeKill;
import io.plumb.testkit.WholeCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The 3-node cluster of {@code deploy/local/kafka.sh start --nodes 3}, as the cluster tests see it:
 * its nodes' state files, the script that stops and starts a node, and a check that all three
 * brokers are back (other cluster tests follow these).
 */
final class LocalKafkaCluster {
  static final String BOOTSTRAP = "127.0.0.1:9092,127.0.0.1:9094,127.0.0.1:9096";

  private static final Path REPO = Path.of("").toAbsolutePath().getParent();
  private static final Path SCRIPT = REPO.resolve("deploy/local/kafka.sh");
  private static final long SCRIPT_TIMEOUT_SECONDS = 300;

  /**
   * What a cluster test registers ({@code @RegisterExtension}): three brokers checked before its
   * first test, the cluster made whole before each test and after the last.
   */
  static final WholeCluster WHOLE_FOR_EACH_TEST =
      WholeCluster.beforeEachTest(
          LocalKafkaCluster::requireThreeBrokers, LocalKafkaCluster::makeWhole);

  /** The same, made whole after the last test only: for tests that stop nodes themselves. */
  static final WholeCluster WHOLE_AFTER_ALL_TESTS =
      WholeCluster.afterAllTests(
          LocalKafkaCluster::requireThreeBrokers, LocalKafkaCluster::makeWhole);

  private LocalKafkaCluster() {}

  static Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP));
  }

  /** Fails the calling test unless the cluster reports exactly three brokers. */
  static void requireThreeBrokers() throws Exception {
    try (Admin admin = admin()) {
      int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
      if (brokers != 3) {
        fail(
            "the Kafka cluster at "
                + BOOTSTRAP
                + " has "
                + brokers
                + " broker(s), not 3: start it with deploy/local/kafka.sh start --nodes 3");
      }
    }
  }

  /**
   * Fails the calling test unless every node's state file records a power-loss layer: a power loss
   * on a cluster without it would be refused before any load.
   */
  static void requirePowerLossLayers() throws IOException {
    for (String node : nodeNames().keySet()) {
      Path env = stateDir().resolve("nodes").resolve(node).resolve("node.env");
      if (value(env, "POWER_LOSS_CONTROL").isEmpty()) {
        fail(
            "Kafka node "
                + node
                + " has no power-loss layer ("
                + env
                + "): start the cluster with deploy/local/kafka.sh start --nodes 3"
                + " --power-loss-layer");
      }
    }
  }

  /** Each node's {@code NAME} (its node.id) by node number, from the state files. */
  static Map<String, String> nodeNames() throws IOException {
    Path nodes = stateDir().resolve("nodes");
    Map<String, String> names = new TreeMap<>();
    try (var dirs = Files.list(nodes)) {
      for (Path dir : dirs.toList()) {
        Path env = dir.resolve("node.env");
        if (Files.isRegularFile(env)) {
          value(env, "NAME").ifPresent(name -> names.put(dir.getFileName().toString(), name));
        }
      }
    }
    return names;
  }

  /** The node whose {@code NAME} is {@code name}. */
  static String nodeNamed(String name) throws IOException {
    return nodeNames().entrySet().stream()
        .filter(e -> e.getValue().equals(name))
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no node.env names " + name));
  }

  /** SIGKILL to the node's process, as its state file names it; returns once it is gone. */
  static void kill(String node) throws Exception {
    NodeKill.kill(
        LocalCluster.of("kafka")
            .node(node)
            .orElseThrow(() -> new AssertionError("no node " + node + " under " + stateDir())));
  }

  static void stopNode(String node) throws Exception {
    script("stop-node", node);
  }

  static void startNode(String node) throws Exception {
    script("start-node", node);
  }

  /**
   * Starts every node that is not running (a test that failed half-way leaves one down) and waits
   * until the cluster reports three brokers again.
   */
  static void makeWhole() throws Exception {
    for (String node : nodeNames().keySet()) {
      script("start-node", node);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    try (Admin admin = admin()) {
      while (true) {
        int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
        if (brokers == 3) {
          return;
        }
        if (System.nanoTime() > deadline) {
          fail("the cluster reports " + brokers + " brokers two minutes after every node started");
        }
        Thread.sleep(500);
      }
    }
  }

  private static Path stateDir() {
    String root = System.getenv("PLUMB_STATE_DIR");
    Path state = root != null && !root.isBlank() ? Path.of(root) : REPO.resolve(".plumb");
    return state.resolve("kafka");
  }

  private static Optional<String> value(Path env, String key) throws IOException {
    for (String line : Files.readAllLines(env)) {
      if (line.startsWith(key + "=")) {
        return Optional.of(line.substring(key.length() + 1).trim());
      }
    }
    return Optional.empty();
  }

  private static void script(String command, String node) throws Exception {
    List<String> args = new ArrayList<>(List.of(SCRIPT.toString(), command, node));
    Process process = new ProcessBuilder(args).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(SCRIPT_TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      fail(String.join(" ", args) + " failed: " + new String(output, StandardCharsets.UTF_8));
    }
  }
}
