package io.plumb.driver.nats;

import io.plumb.testkit.WholeCluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local 3-node cluster of {@code deploy/local/nats.sh start --nodes 3}, for cluster tests:
 * checks it is there, makes it whole again (every node running, one JetStream meta leader that
 * every node knows) after a test that stopped, froze or cut off a node, tells how it was started
 * (sync policy, power-loss layer) and starts it again with other settings.
 */
final class LocalNatsCluster {
  private static final Path SCRIPT = Path.of("../deploy/local/nats.sh");
  private static final Path NODE_1_ENV =
      Path.of(System.getenv().getOrDefault("PLUMB_STATE_DIR", "../.plumb"))
          .resolve("nats/nodes/1/node.env");
  private static final int NODES = 3;
  private static final int MONITOR_PORT = 8222;
  private static final Pattern META_LEADER =
      Pattern.compile("\"meta_cluster\"\\s*:\\s*\\{[^}]*\"leader\"\\s*:\\s*\"([^\"]+)\"");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /**
   * What a cluster test registers ({@code @RegisterExtension}): three nodes checked before its
   * first test, the cluster made whole before each test and after the last.
   */
  static final WholeCluster WHOLE_FOR_EACH_TEST =
      WholeCluster.beforeEachTest(LocalNatsCluster::requireThreeNodes, LocalNatsCluster::makeWhole);

  private LocalNatsCluster() {}

  /** Fails with the command that starts the cluster when its 3 nodes are not all running. */
  static void requireThreeNodes() throws Exception {
    int status = script("status");
    if (status != 0) {
      throw new AssertionError(
          "the NATS cluster is not running with 3 nodes (deploy/local/nats.sh status exit "
              + status
              + "): start it with deploy/local/nats.sh start --nodes 3");
    }
  }

  /**
   * Starts (or resumes) any node that is not running, then waits up to 60 s until every node is
   * healthy and all name the same JetStream meta leader.
   */
  static void makeWhole() throws Exception {
    for (int n = 1; n <= NODES; n++) {
      // Quiet when the node runs; resumes it when frozen; starts it with its store when stopped.
      int exit = script("start-node", String.valueOf(n));
      if (exit != 0) {
        throw new AssertionError("deploy/local/nats.sh start-node " + n + " exited " + exit);
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String last = "";
    while (System.nanoTime() < deadline) {
      Set<String> leaders = new HashSet<>();
      boolean healthy = true;
      for (int n = 1; n <= NODES && healthy; n++) {
        healthy = get(n, "/healthz").contains("\"ok\"");
        Matcher m = META_LEADER.matcher(get(n, "/jsz"));
        leaders.add(m.find() ? m.group(1) : "");
      }
      last = "healthy " + healthy + ", meta leaders named " + leaders;
      if (healthy && leaders.size() == 1 && !leaders.contains("")) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the NATS cluster is not whole after 60 s: " + last);
  }

  /** The sync policy the running cluster was started with and read back: always or default. */
  static String sync() throws IOException {
    return nodeValue("SYNC");
  }

  /** Whether the running cluster's nodes keep their stores on the power-loss layer. */
  static boolean powerLossLayer() throws IOException {
    return !nodeValue("POWER_LOSS_CONTROL").isEmpty();
  }

  /**
   * Stops the cluster and starts it again from empty stores, 3 nodes with the layer and the given
   * sync policy; fails with the script's output when either step fails.
   */
  static void restartWithLayer(String sync) throws Exception {
    run(120, "stop");
    run(300, "start", "--nodes", String.valueOf(NODES), "--power-loss-layer", "--sync", sync);
  }

  private static String nodeValue(String key) throws IOException {
    for (String line : Files.readAllLines(NODE_1_ENV)) {
      if (line.startsWith(key + "=")) {
        return line.substring(key.length() + 1);
      }
    }
    return "";
  }

  private static void run(long timeoutSeconds, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    // Read while it runs: a full pipe would block the script.
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                return "(output unreadable: " + e + ")";
              }
            });
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " took over " + timeoutSeconds + " s");
    }
    if (p.exitValue() != 0) {
      throw new AssertionError(
          String.join(" ", command) + " exited " + p.exitValue() + ": " + output.get());
    }
  }

  private static String get(int node, String path) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (MONITOR_PORT + node - 1) + path))
              .timeout(Duration.ofSeconds(2))
              .build();
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static int script(String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = SCRIPT.toString();
    System.arraycopy(args, 0, command, 1, args.length);
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " took over 120 s");
    }
    return p.exitValue();
  }
}
