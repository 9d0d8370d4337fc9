package io.plumb.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A local cluster of {@link TestNode} processes with a deploy script of the same shape as the
 * brokers' ({@code start-node N}, {@code stop-node N}, state in {@code nodes/<n>/node.env}, each
 * node in a cgroup of its own through {@code deploy/local/node-cgroup.sh}), so fault schedules act
 * on real processes and real sockets. A node's cgroup is named by its port, which no two clusters
 * of the tests share, so that clusters of tests running at once never cut each other's nodes.
 */
final class TestCluster implements AutoCloseable {
  private static final Path NODE_CGROUP =
      Path.of("..", "deploy", "local", "node-cgroup.sh").toAbsolutePath().normalize();

  private final Path stateRoot;
  private final LocalCluster cluster;
  private final int basePort;

  TestCluster(Path dir, int nodes, int basePort) throws IOException, InterruptedException {
    this(dir, "testbroker", nodes, basePort);
  }

  /**
   * A cluster laid out as a source tree is: {@code home/deploy/local/<broker>.sh} and its state in
   * {@code home/.plumb/<broker>}, so {@link LocalCluster#of} finds it with {@code plumb.home} set.
   */
  TestCluster(Path home, String broker, int nodes, int basePort)
      throws IOException, InterruptedException {
    this(home, broker, nodes, basePort, null);
  }

  /**
   * With {@code layerTool}, every node's state file names it as its power-loss layer's program
   * (with a control socket path of its own), as {@code --power-loss-layer} would.
   */
  TestCluster(Path home, String broker, int nodes, int basePort, Path layerTool)
      throws IOException, InterruptedException {
    this(home, broker, nodes, basePort, layerTool, Map.of());
  }

  /**
   * As above, but node N of {@code instead} gets those lines in its state file in place of the
   * layer's: {@code POWER_LOSS_NO_DATA=1} for a node that keeps no data (a Pulsar broker), or
   * nothing for a node its script left off the layer.
   */
  TestCluster(
      Path home,
      String broker,
      int nodes,
      int basePort,
      Path layerTool,
      Map<Integer, String> instead)
      throws IOException, InterruptedException {
    this.stateRoot = home.resolve(".plumb");
    Files.createDirectories(stateRoot.resolve(broker));
    if (layerTool != null) {
      Files.writeString(stateRoot.resolve(broker).resolve("layer-tool"), layerTool.toString());
    }
    for (Map.Entry<Integer, String> node : instead.entrySet()) {
      Files.writeString(
          stateRoot.resolve(broker).resolve("power-loss-" + node.getKey() + ".env"),
          node.getValue());
    }
    this.basePort = basePort;
    Path script = home.resolve("deploy/local/" + broker + ".sh");
    Files.createDirectories(script.getParent());
    String java = ProcessHandle.current().info().command().orElse("java");
    String classes = Path.of("target", "test-classes").toAbsolutePath().toString();
    bashScript(
        script,
        "set -euo pipefail",
        "dir=\"$PLUMB_STATE_DIR/" + broker + "/nodes/$2\"",
        "port=$((" + basePort + " + $2))",
        "case \"$1\" in",
        "  start-node)",
        "    mkdir -p \"$dir\"",
        "    setsid "
            + NODE_CGROUP
            + " run plumb-test-$port "
            + java
            + " -cp "
            + classes
            + " io.plumb.fault.TestNode $port </dev/null >\"$dir/out.log\" 2>&1 &",
        "    pid=$!",
        "    printf 'NODE=%s\\nPID=%s\\nPORTS=%s\\nNAME=127.0.0.1:%s\\nCGROUP=%s\\n' \"$2\" \"$pid\" \"$port\" \"$port\" \"$("
            + NODE_CGROUP
            + " path plumb-test-$port $pid)\" >\"$dir/node.env\"",
        // As a broker script started with --power-loss-layer records its node's layer.
        "    layer=\"$PLUMB_STATE_DIR/" + broker + "/layer-tool\"",
        "    instead=\"$PLUMB_STATE_DIR/" + broker + "/power-loss-$2.env\"",
        "    if [ -f \"$instead\" ]; then cat \"$instead\" >>\"$dir/node.env\";",
        "    elif [ -f \"$layer\" ]; then printf 'POWER_LOSS_TOOL=%s\\nPOWER_LOSS_CONTROL=%s\\n'"
            + " \"$(cat \"$layer\")\" \"$dir/layer.sock\" >>\"$dir/node.env\"; fi",
        "    for i in $(seq 100); do (echo >/dev/tcp/127.0.0.1/$port) 2>/dev/null && exit 0; sleep 0.1; done",
        "    echo \"node $2 did not listen on $port\" >&2; exit 1 ;;",
        "  stop-node)",
        "    pid=$(sed -n 's/^PID=//p' \"$dir/node.env\")",
        "    kill -TERM \"$pid\" 2>/dev/null || true",
        "    while kill -0 \"$pid\" 2>/dev/null; do sleep 0.05; done ;;",
        "esac");
    this.cluster = new LocalCluster(broker, stateRoot.resolve(broker), script);
    for (int node = 1; node <= nodes; node++) {
      run(script.toString(), "start-node", Integer.toString(node));
    }
  }

  /** Writes {@code lines} to {@code file} as an executable bash script, and returns the file. */
  static Path bashScript(Path file, String... lines) throws IOException {
    Files.writeString(file, "#!/usr/bin/env bash\n" + String.join("\n", lines) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  LocalCluster cluster() {
    return cluster;
  }

  int port(int node) {
    return basePort + node;
  }

  ClusterNode node(int node) {
    return cluster.node(Integer.toString(node)).orElseThrow();
  }

  private void run(String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("PLUMB_STATE_DIR", stateRoot.toString());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }

  @Override
  public void close() {
    List<ProcessHandle> processes = new ArrayList<>();
    for (ClusterNode node : cluster.nodes()) {
      node.pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(processes::add));
    }
    for (ProcessHandle process : processes) {
      process.destroyForcibly(); // SIGKILL ends a frozen (stopped) process too
    }
  }
}
