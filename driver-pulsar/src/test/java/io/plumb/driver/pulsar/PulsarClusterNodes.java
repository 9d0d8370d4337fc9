package io.plumb.driver.pulsar;

import io.plumb.fault.ClusterNode;
import io.plumb.fault.LocalCluster;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The cluster tests' hands on deploy/local/pulsar.sh and its state files. */
final class PulsarClusterNodes {
  private PulsarClusterNodes() {}

  /** The node of the state files that the broker's name for it, {@code identity}, names. */
  static ClusterNode nodeNamed(LocalCluster cluster, String identity) {
    List<ClusterNode> nodes = cluster.nodes();
    return nodes.stream()
        .filter(n -> n.answersTo(identity))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError(identity + " is none of the cluster's nodes " + nodes));
  }

  /** Runs {@code deploy/local/pulsar.sh COMMAND NODE}; fails the test when it fails. */
  static void script(LocalCluster cluster, String command, String node)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(cluster.script().toString(), command, node).redirectErrorStream(true);
    builder.environment().put("PLUMB_STATE_DIR", cluster.stateDir().getParent().toString());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(300, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new AssertionError("pulsar.sh " + command + " " + node + " failed: " + output);
    }
  }

  /** Starts every node of the cluster that is not running (a test's fault left it down). */
  static void startStopped(LocalCluster cluster) throws IOException, InterruptedException {
    // ZooKeeper first, the broker last: the order the cluster starts in.
    for (String name : List.of("zookeeper", "1", "2", "3", "broker")) {
      var node = cluster.node(name);
      if (node.isPresent() && !node.get().running()) {
        script(cluster, "start-node", name);
      }
    }
  }
}
