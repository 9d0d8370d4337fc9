package io.plumb.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Acts on one node's process: signals for kill and freeze, the cluster's own script for a clean
 * stop and for starting a node again with its data. The scripts' output goes to {@code faults.log}
 * in the cluster's state directory, not to the console.
 */
final class NodeControl {
  private static final long START_TIMEOUT_SECONDS = 300;

  private final LocalCluster cluster;

  NodeControl(LocalCluster cluster) {
    this.cluster = cluster;
  }

  /**
   * SIGKILL to every node's processes first, then waits until each is gone (its ports free for a
   * restart). Signalling one node and waiting for it before the next spread "all nodes at once"
   * over seconds: a JVM with a large heap takes 1 to 2 s to die on a busy host, and the nodes still
   * running went on acknowledging meanwhile. Each node is waited for even when one before it did
   * not die, so that every node that did is down when this fails, and is started again.
   */
  void kill(List<ClusterNode> nodes) {
    List<List<ProcessHandle>> trees = nodes.stream().map(NodeControl::processTree).toList();
    trees.forEach(tree -> tree.forEach(ProcessHandle::destroyForcibly));
    List<String> alive = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      for (ProcessHandle process : trees.get(i)) {
        try {
          process.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          alive.add(nodes.get(i) + " (PID " + process.pid() + ")");
        }
      }
    }
    if (!alive.isEmpty()) {
      throw new FaultException(String.join(", ", alive) + " did not die after SIGKILL");
    }
  }

  /**
   * A power failure of every node in {@code nodes} at one instant: each is killed first (nothing of
   * theirs runs on), then each node's power-loss layer drops what was not yet durable. A node that
   * keeps no data of its own and has no layer ({@link ClusterNode#keepsNoData}) loses nothing a
   * kill would not: it is killed, and there is nothing to drop. Any other node without a layer
   * fails.
   */
  void powerLoss(List<ClusterNode> nodes) {
    kill(nodes);
    for (ClusterNode node : nodes) {
      if (node.keepsNoData() && node.powerLossLayer().isEmpty()) {
        continue;
      }
      PowerLossLayer layer = layer(node);
      run(
          List.of(layer.tool().toString(), "drop", "--control", layer.control().toString()),
          30,
          "dropping the unsynced data of " + node);
    }
  }

  /** Whether the node's layer answers: its status, or a {@link FaultException} saying why not. */
  void checkLayer(ClusterNode node) {
    PowerLossLayer layer = layer(node);
    run(
        List.of(layer.tool().toString(), "status", "--control", layer.control().toString()),
        10,
        "the power-loss layer of " + node + " (" + layer.control() + ")");
  }

  private static PowerLossLayer layer(ClusterNode node) {
    return node.powerLossLayer()
        .orElseThrow(
            () ->
                new FaultException(
                    node
                        + " has no power-loss layer (no POWER_LOSS_CONTROL in "
                        + node.envFile()
                        + ")"));
  }

  void freeze(ClusterNode node) {
    signal(node, "-STOP");
  }

  void thaw(ClusterNode node) {
    signal(node, "-CONT");
  }

  /** A clean stop through the cluster's script (SIGTERM and a wait, as an operator would). */
  void stop(ClusterNode node) {
    script("stop-node", node);
  }

  /** Starts a stopped or killed node again with its data, and waits until it is up. */
  void start(ClusterNode node) {
    script("start-node", node);
  }

  private static ProcessHandle process(ClusterNode node) {
    OptionalLong pid = node.pid();
    if (pid.isEmpty()) {
      throw new FaultException(node + " is not running (no PID in " + node.envFile() + ")");
    }
    return ProcessHandle.of(pid.getAsLong())
        .filter(ProcessHandle::isAlive)
        .orElseThrow(
            () -> new FaultException(node + " is not running (PID " + pid.getAsLong() + " gone)"));
  }

  /**
   * The node's process, then every process it started: a crash or a frozen host stops them all. A
   * signal to the parent alone does not reach its children (Redis forks one to rewrite its
   * append-only file or to send a full copy to a replica), which went on writing and sending while
   * the node was meant to be down or frozen. Listed before any signal: a killed parent's children
   * are handed to init, and would no longer show as its descendants.
   */
  private static List<ProcessHandle> processTree(ClusterNode node) {
    ProcessHandle root = process(node);
    List<ProcessHandle> tree = new ArrayList<>();
    tree.add(root);
    root.descendants().forEach(tree::add);
    return tree;
  }

  private void signal(ClusterNode node, String signal) {
    List<String> command = new ArrayList<>(List.of("kill", signal));
    processTree(node).forEach(process -> command.add(Long.toString(process.pid())));
    run(command, 10, "kill " + signal);
  }

  private void script(String command, ClusterNode node) {
    run(
        List.of(cluster.script().toString(), command, node.name()),
        START_TIMEOUT_SECONDS,
        cluster.script().getFileName() + " " + command + " " + node.name());
  }

  private void run(List<String> command, long timeoutSeconds, String what) {
    Path log = cluster.stateDir().resolve("faults.log");
    try {
      Files.createDirectories(cluster.stateDir());
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      builder.environment().put("PLUMB_STATE_DIR", cluster.stateDir().getParent().toString());
      Process process = builder.start();
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new FaultException(what + " took over " + timeoutSeconds + " s (log: " + log + ")");
      }
      if (process.exitValue() != 0) {
        throw new FaultException(
            what + " failed with exit " + process.exitValue() + " (log: " + log + ")");
      }
    } catch (IOException e) {
      throw new FaultException(what + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException(what + " was interrupted");
    }
  }
}
