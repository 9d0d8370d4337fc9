package io.plumb.fault;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One node of a local cluster as its deploy script recorded it in {@code node.env}: its process,
 * ports, the broker's own name for it and its cgroup. Read afresh whenever a fault needs it, since
 * a restart changes the PID.
 *
 * @param name the node's directory name: "1", "2", "3", or a role such as "broker"
 */
public record ClusterNode(String name, Path envFile, Map<String, String> values) {

  public OptionalLong pid() {
    String pid = values.getOrDefault("PID", "");
    return pid.matches("\\d+") ? OptionalLong.of(Long.parseLong(pid)) : OptionalLong.empty();
  }

  /** Whether the recorded process is alive now. */
  public boolean running() {
    OptionalLong pid = pid();
    return pid.isPresent()
        && ProcessHandle.of(pid.getAsLong()).map(ProcessHandle::isAlive).orElse(false);
  }

  public List<Integer> ports() {
    List<Integer> ports = new ArrayList<>();
    for (String port : values.getOrDefault("PORTS", "").split(",")) {
      if (port.trim().matches("\\d+")) {
        ports.add(Integer.parseInt(port.trim()));
      }
    }
    return ports;
  }

  /** The cgroup directory the node's process runs in, when its script put it in one. */
  public Optional<Path> cgroup() {
    String dir = values.getOrDefault("CGROUP", "");
    return dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir));
  }

  /**
   * The control socket of the power-loss layer under the node's data, when its script mounted one
   * ({@code --power-loss-layer}), with the layer's program.
   */
  public Optional<PowerLossLayer> powerLossLayer() {
    String control = values.getOrDefault("POWER_LOSS_CONTROL", "");
    String tool = values.getOrDefault("POWER_LOSS_TOOL", "");
    return control.isBlank() || tool.isBlank()
        ? Optional.empty()
        : Optional.of(new PowerLossLayer(Path.of(tool), Path.of(control)));
  }

  /**
   * Whether the node's script recorded that it keeps no data on its host ({@code
   * POWER_LOSS_NO_DATA=1}), as a Pulsar broker, whose state lives in BookKeeper and ZooKeeper: a
   * power loss kills it and has nothing to drop, so it needs no layer. Any other value, or none,
   * means the node has data that a power loss must be able to take.
   */
  public boolean keepsNoData() {
    return values.getOrDefault("POWER_LOSS_NO_DATA", "").equals("1");
  }

  /** A numbered node of the cluster (a broker, bookie or server), not a helper role. */
  public boolean numbered() {
    return name.matches("\\d+");
  }

  /**
   * Whether the broker's name for a node, {@code identity}, is this one: equal to NAME, or a
   * host:port whose port this node listens on.
   */
  public boolean answersTo(String identity) {
    String trimmed = identity.trim();
    if (trimmed.equals(values.getOrDefault("NAME", "")) || trimmed.equals(name)) {
      return true;
    }
    int colon = trimmed.lastIndexOf(':');
    String port = colon < 0 ? "" : trimmed.substring(colon + 1).replaceAll("/.*", "");
    return port.matches("\\d+") && ports().contains(Integer.parseInt(port));
  }

  @Override
  public String toString() {
    return "node " + name;
  }
}
