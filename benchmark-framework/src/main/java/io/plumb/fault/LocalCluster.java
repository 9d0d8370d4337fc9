package io.plumb.fault;

import io.plumb.input.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A cluster started by {@code deploy/local/<broker>.sh}: its nodes, read from the state files the
 * script keeps ({@code <state>/<broker>/nodes/<n>/node.env}), and the script that starts and stops
 * them. Faults act on what these files say, never on what a YAML file believes.
 *
 * @param broker the script's name: kafka, pulsar, rabbitmq, nats or redis
 */
public record LocalCluster(String broker, Path stateDir, Path script) {

  /**
   * Finds the cluster of {@code broker}: the state root is {@code PLUMB_STATE_DIR}, else {@code
   * .plumb} in the source tree ({@code PLUMB_HOME}, set by bin/benchmark, or the first directory at
   * or above the working directory that has {@code deploy/local}).
   */
  public static LocalCluster of(String broker) {
    Optional<Path> home = home();
    Path script =
        home.map(h -> h.resolve("deploy/local/" + broker + ".sh"))
            .orElse(Path.of("deploy/local/" + broker + ".sh"));
    String stateRoot = System.getenv("PLUMB_STATE_DIR");
    Path state =
        stateRoot != null && !stateRoot.isBlank()
            ? Path.of(stateRoot)
            : home.map(h -> h.resolve(".plumb")).orElse(Path.of(".plumb"));
    return new LocalCluster(broker, state.resolve(broker), script);
  }

  private static Optional<Path> home() {
    String home = System.getProperty("plumb.home", System.getenv("PLUMB_HOME"));
    if (home != null && !home.isBlank()) {
      return Optional.of(Path.of(home).toAbsolutePath());
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("deploy/local"))) {
        return Optional.of(dir);
      }
    }
    return Optional.empty();
  }

  /** Every node the script recorded, numbered ones first, as they are now. */
  public List<ClusterNode> nodes() {
    Path dir = stateDir.resolve("nodes");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<ClusterNode> nodes = new ArrayList<>();
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : entries.toList()) {
        Path env = entry.resolve("node.env");
        if (Files.isRegularFile(env)) {
          nodes.add(new ClusterNode(entry.getFileName().toString(), env, read(env)));
        }
      }
    } catch (IOException e) {
      throw new BadInputException(dir + ": cannot read the cluster's state: " + e.getMessage());
    }
    nodes.sort(
        Comparator.comparing((ClusterNode n) -> !n.numbered())
            .thenComparing(
                n -> n.numbered() ? String.format("%09d", Long.parseLong(n.name())) : n.name()));
    return nodes;
  }

  /** The numbered nodes (brokers, bookies, servers), which "random" and "followers" choose from. */
  public List<ClusterNode> numberedNodes() {
    return nodes().stream().filter(ClusterNode::numbered).toList();
  }

  public Optional<ClusterNode> node(String name) {
    return nodes().stream().filter(n -> n.name().equals(name)).findFirst();
  }

  /** The line that tells a user how to get a cluster of three. */
  public String startHint() {
    return "start one with deploy/local/" + broker + ".sh start --nodes 3";
  }

  private static Map<String, String> read(Path env) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : Files.readAllLines(env)) {
      int equals = line.indexOf('=');
      if (equals > 0 && !line.startsWith("#")) {
        values.put(line.substring(0, equals).trim(), line.substring(equals + 1).trim());
      }
    }
    return values;
  }
}
