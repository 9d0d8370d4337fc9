package io.plumb.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a node's process really runs in the cgroup its state file records. A deploy script that
 * failed to move the process there would otherwise leave a cut matching nothing: the fault would
 * "apply" while the node kept talking.
 */
final class CgroupMembership {
  private CgroupMembership() {}

  /** Why {@code node}'s process is not in its recorded cgroup; empty when it is. */
  static Optional<String> problem(ClusterNode node) {
    Optional<Path> recorded = node.cgroup();
    if (recorded.isEmpty()) {
      return Optional.of(
          node
              + " runs in no cgroup of its own (no CGROUP in "
              + node.envFile()
              + "; its start could not join one, or this machine lacks a writable cgroup v2)");
    }
    if (node.pid().isEmpty()) {
      return Optional.of(node + " has no PID in " + node.envFile());
    }
    long pid = node.pid().getAsLong();
    String actual;
    try {
      actual = unifiedPath(Files.readAllLines(Path.of("/proc/" + pid + "/cgroup")));
    } catch (IOException e) {
      return Optional.of(node + " (PID " + pid + ") is not running: " + e.getMessage());
    }
    String expected;
    try {
      expected = "/" + NetworkCut.cgroup2Mount().relativize(recorded.get());
    } catch (FaultException | IllegalArgumentException e) {
      return Optional.of(node + "'s CGROUP " + recorded.get() + " is not under cgroup v2");
    }
    return actual.equals(expected)
        ? Optional.empty()
        : Optional.of(
            node
                + " (PID "
                + pid
                + ") runs in cgroup "
                + (actual.isEmpty() ? "(none of cgroup v2)" : actual)
                + ", not in "
                + expected
                + " as "
                + node.envFile()
                + " records: a cut would match nothing");
  }

  /** The cgroup v2 path of a /proc/PID/cgroup listing: its "0::/path" line. */
  static String unifiedPath(Iterable<String> lines) {
    for (String line : lines) {
      if (line.startsWith("0::")) {
        return line.substring(3).trim();
      }
    }
    return "";
  }
}
