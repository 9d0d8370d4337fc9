package io.plumb.testkit;

import io.plumb.fault.ClusterNode;
import java.util.concurrent.TimeUnit;

/**
 * SIGKILL to one node of a local cluster, by the PID its {@code node.env} records: what a cluster
 * test does to a node outside a fault plan (a fault plan kills through the deploy script).
 */
public final class NodeKill {

  /** Kills {@code node}'s process and returns once it is gone; fails if it is not running. */
  public static void kill(ClusterNode node) throws Exception {
    long pid = node.pid().orElseThrow(() -> new AssertionError("no PID in " + node.envFile()));
    ProcessHandle process =
        ProcessHandle.of(pid)
            .orElseThrow(() -> new AssertionError("node " + node.name() + " is down"));
    process.destroyForcibly();
    process.onExit().get(30, TimeUnit.SECONDS);
  }

  private NodeKill() {}
}
