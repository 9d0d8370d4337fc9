package io.plumb.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill and freeze reach a node's whole process tree, as a crash or a frozen host would: a node with
 * children stands in for Redis while a forked child rewrites its file or feeds a replica.
 */
class NodeControlTest {
  @TempDir Path dir;

  private Process parent;
  private List<ProcessHandle> children = List.of();

  @AfterEach
  void killLeftovers() {
    children.forEach(ProcessHandle::destroyForcibly);
    if (parent != null) {
      parent.destroyForcibly();
    }
  }

  /** A node whose process has two children, each running until killed. */
  private ClusterNode nodeWithChildren() throws Exception {
    parent = new ProcessBuilder("bash", "-c", "sleep 600 & sleep 600 & wait").start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (parent.toHandle().children().count() < 2 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    children = parent.toHandle().children().toList();
    assertEquals(2, children.size(), "the stand-in node started its two children");
    return new ClusterNode(
        "1", dir.resolve("node.env"), Map.of("PID", Long.toString(parent.pid())));
  }

  private NodeControl control() throws IOException {
    Files.createDirectories(dir.resolve("state"));
    return new NodeControl(new LocalCluster("test", dir.resolve("state"), dir.resolve("test.sh")));
  }

  @Test
  void aKillLeavesNoChildRunning() throws Exception {
    ClusterNode node = nodeWithChildren();
    control().kill(List.of(node));
    for (ProcessHandle child : children) {
      child.onExit().get(10, TimeUnit.SECONDS);
      assertFalse(child.isAlive(), "child " + child.pid() + " outlived the kill");
    }
    assertFalse(parent.isAlive());
  }

  @Test
  void aFreezeStopsTheChildrenAndAThawLetsThemGo() throws Exception {
    ClusterNode node = nodeWithChildren();
    NodeControl control = control();
    control.freeze(node);
    for (ProcessHandle child : children) {
      assertEquals('T', settledState(child, true), "child " + child.pid() + " ran on, unfrozen");
    }
    assertEquals('T', settledState(parent.toHandle(), true));
    control.thaw(node);
    for (ProcessHandle child : children) {
      assertTrue(settledState(child, false) != 'T', "child " + child.pid() + " still stopped");
    }
  }

  /**
   * The process's state once it is stopped ({@code stopped}) or running again, or as it is after 10
   * s: a signal takes effect when the process next runs, a moment after kill returns.
   */
  private static char settledState(ProcessHandle process, boolean stopped) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    char state = state(process);
    while ((state == 'T') != stopped && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      state = state(process);
    }
    return state;
  }

  /** The process's state letter in /proc: T while stopped by a signal. */
  private static char state(ProcessHandle process) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }
}
