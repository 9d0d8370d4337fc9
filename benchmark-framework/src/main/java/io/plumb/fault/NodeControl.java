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
   * SIGKILL to every node's process first, then waits until each is gone (its ports free for a
   * restart). Signalling one node and waiting for it before the next spread "all nodes at once"
   * over seconds: a JVM with a large heap takes 1 to 2 s to die on a busy host, and the nodes still
   * running went on acknowledging meanwhile. Each node is waited for even when one before it did
   * not die, so that every node that did is down when this fails, and is started again.
   */
  void kill(List<ClusterNode> nodes) {
    List<ProcessHandle> processes = nodes.stream().map(NodeControl::process).toList();
    processes.forEach(ProcessHandle::destroyForcibly);
    List<String> alive = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      ProcessHandle process = processes.get(i);
      try {
        process.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        alive.add(nodes.get(i) + " (PID " + process.pid() + ")");
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

  private void signal(ClusterNode node, String signal) {
    ProcessHandle process = process(node);
    run(List.of("kill", signal, Long.toString(process.pid())), 10, "kill " + signal);
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
