package io.plumb.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Cuts a node's traffic with nftables while its process keeps running. Each node runs in a cgroup
 * of its own (its deploy script starts it through {@code deploy/local/node-cgroup.sh}), and
 * nftables matches the cgroup of the socket a packet leaves or reaches, so only that process is
 * cut, in both directions, whoever opened the connection. Each cut is a table of its own, deleted
 * to heal.
 *
 * <ul>
 *   <li>isolate: every packet of the node's sockets is dropped (other nodes and clients alike);
 *   <li>partition: only packets between the node and the other nodes' ports are dropped, so clients
 *       still reach it while its peers cannot: the split that shows what a weak configuration
 *       acknowledges and then loses.
 * </ul>
 */
final class NetworkCut {
  private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

  private final String table;

  private NetworkCut(String table) {
    this.table = table;
  }

  /** Why cuts cannot be made on this machine for {@code nodes}; empty when they can. */
  static Optional<String> unsupported(List<ClusterNode> nodes) {
    if (!nftWorks()) {
      return Optional.of(
          "nftables is not usable here (needs the nft command and root; deploy/local/install-debian-packages.sh installs it)");
    }
    for (ClusterNode node : nodes) {
      if (node.cgroup().isEmpty() || !Files.isDirectory(node.cgroup().get())) {
        return Optional.of(
            node
                + " runs in no cgroup of its own (no CGROUP in "
                + node.envFile()
                + "; this machine may lack a writable cgroup v2)");
      }
    }
    return Optional.empty();
  }

  static NetworkCut isolate(String table, ClusterNode node) {
    String socket = socketMatch(node);
    return apply(
        table,
        List.of(
            "add rule inet " + table + " in " + socket + " drop",
            "add rule inet " + table + " out " + socket + " drop"));
  }

  static NetworkCut partition(String table, ClusterNode node, List<ClusterNode> others) {
    String socket = socketMatch(node);
    String ports = portSet(List.of(node));
    String otherPorts = portSet(others);
    List<String> rules = new ArrayList<>();
    rules.add("add rule inet " + table + " out " + socket + " tcp dport " + otherPorts + " drop");
    rules.add("add rule inet " + table + " in " + socket + " tcp sport " + otherPorts + " drop");
    for (ClusterNode other : others) {
      String peer = socketMatch(other);
      rules.add("add rule inet " + table + " out " + peer + " tcp dport " + ports + " drop");
      rules.add("add rule inet " + table + " in " + peer + " tcp sport " + ports + " drop");
    }
    return apply(table, rules);
  }

  void heal() {
    nft(List.of("delete table inet " + table));
  }

  private static NetworkCut apply(String table, List<String> rules) {
    List<String> script = new ArrayList<>();
    script.add("add table inet " + table);
    script.add(
        "add chain inet "
            + table
            + " in { type filter hook input priority -10 ; policy accept ; }");
    script.add(
        "add chain inet "
            + table
            + " out { type filter hook output priority -10 ; policy accept ; }");
    script.addAll(rules);
    nft(script);
    return new NetworkCut(table);
  }

  /** The nft match for sockets of {@code node}'s process: its cgroup, at its depth. */
  private static String socketMatch(ClusterNode node) {
    Path cgroup = node.cgroup().orElseThrow(() -> new FaultException(node + " has no cgroup"));
    Path mount = cgroup2Mount();
    int level = mount.relativize(cgroup).getNameCount();
    return "socket cgroupv2 level " + level + " \"" + CGROUP_ROOT.relativize(cgroup) + "\"";
  }

  private static String portSet(List<ClusterNode> nodes) {
    String ports =
        nodes.stream()
            .flatMap(n -> n.ports().stream())
            .distinct()
            .map(String::valueOf)
            .collect(Collectors.joining(", "));
    if (ports.isEmpty()) {
      throw new FaultException("no PORTS recorded for " + nodes);
    }
    return "{ " + ports + " }";
  }

  static Path cgroup2Mount() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
        String[] fields = line.split(" ");
        if (fields.length > 2 && fields[2].equals("cgroup2")) {
          return Path.of(fields[1]);
        }
      }
    } catch (IOException e) {
      throw new FaultException("cannot read /proc/mounts: " + e.getMessage());
    }
    throw new FaultException("no cgroup v2 is mounted");
  }

  private static boolean nftWorks() {
    try {
      Process process =
          new ProcessBuilder("nft", "list", "tables").redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void nft(List<String> commands) {
    try {
      Process process = new ProcessBuilder("nft", "-f", "-").redirectErrorStream(true).start();
      process.getOutputStream().write(String.join("\n", commands).concat("\n").getBytes());
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes()).trim();
      if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new FaultException(
            "nft failed: "
                + (output.isEmpty()
                    ? "exit " + process.exitValue()
                    : output.lines().findFirst().orElse("")));
      }
    } catch (IOException e) {
      throw new FaultException("nft: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException("nft was interrupted");
    }
  }
}
