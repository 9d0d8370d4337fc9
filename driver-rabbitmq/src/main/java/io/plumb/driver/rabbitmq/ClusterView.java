package io.plumb.driver.rabbitmq;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The cluster as the broker reports it through the management API: its running nodes, its version,
 * and the copies of the queues or streams a driver created. Both drivers check a file's {@code
 * replicas} against it before any load, and report replication from it, never from the file.
 */
final class ClusterView {
  /** The field both drivers read the number of copies from. */
  static final String REPLICAS_FIELD = "replicas";

  /** Refuses a file's {@code replicas} below one copy; null, the broker's default, passes. */
  static void checkReplicasField(DriverSettings s, Integer replicas) throws DriverConfigException {
    if (replicas != null && replicas < 1) {
      throw s.error(REPLICAS_FIELD, replicas + "; allowed: 1 or more");
    }
  }

  private final ManagementApi api;
  private final Map<String, QueueCopies> copies = new ConcurrentSkipListMap<>();
  private final Map<String, String> leaderByQueue = new ConcurrentSkipListMap<>();
  private volatile List<String> runningNodes = List.of();
  private volatile String version;
  private volatile String unreachable;

  ClusterView(ManagementApi api) {
    this.api = api;
  }

  /**
   * Reads the running nodes and the version, and refuses a file that asks for more copies than the
   * cluster has running nodes: the broker would silently create fewer. Without the management API a
   * file asking for copies cannot be checked and is refused too; one that asks for none runs, with
   * the reason its facts lack the replication.
   *
   * @param settings the driver file's settings, for the one-line error
   * @param replicas copies the file asks for, or null for the broker's default
   * @param argument the queue argument that carries them, for the error
   */
  void check(DriverSettings settings, Integer replicas, String argument)
      throws DriverConfigException, IOException, InterruptedException {
    try {
      runningNodes = List.copyOf(api.runningNodes());
      version = api.version();
    } catch (IOException e) {
      if (replicas != null && replicas > 1) {
        throw new IOException(
            settings.file()
                + ": field '"
                + REPLICAS_FIELD
                + "' asks for "
                + replicas
                + " copies, but the node count cannot be read from the management API at "
                + api.address()
                + " (enable rabbitmq_management): "
                + e.getMessage(),
            e);
      }
      unreachable = "unreachable at " + api.address() + ": " + e.getMessage();
      return;
    }
    if (replicas != null && replicas > runningNodes.size()) {
      int nodes = runningNodes.size();
      throw settings.error(
          REPLICAS_FIELD,
          "asks for "
              + replicas
              + " copies ("
              + argument
              + ") but the RabbitMQ cluster at "
              + api.answering()
              + " has "
              + nodes
              + (nodes == 1 ? " running node" : " running nodes")
              + " (start "
              + replicas
              + ": deploy/local/rabbitmq.sh start --nodes "
              + replicas
              + ")");
    }
  }

  /**
   * Refuses mirroring that would give one copy: {@code haMode all} on a single running node (the
   * file's {@code replicas} with {@code haMode exactly} is checked by {@link #check}), and any
   * mirroring without the management API, through which its policy is applied.
   */
  void checkMirroring(DriverSettings settings, ClassicMirroring mirroring)
      throws DriverConfigException {
    if (!readable()) {
      throw settings.error(
          MirroringSettings.MODE_FIELD,
          "mirroring is applied as a policy through the management API, which is "
              + unreachable
              + " (enable rabbitmq_management)");
    }
    if (mirroring.mode() == ClassicMirroring.HaMode.ALL && runningNodes.size() < 2) {
      throw settings.error(
          MirroringSettings.MODE_FIELD,
          "all mirrors each queue on every node, but the RabbitMQ cluster at "
              + api.answering()
              + " has 1 running node, so each queue would have one copy (start 3: "
              + "deploy/local/rabbitmq.sh start --nodes 3)");
    }
  }

  /** Whether the management API answered {@link #check}: without it nothing is read back. */
  boolean readable() {
    return unreachable == null && version != null;
  }

  /** The running nodes {@link #check} read. */
  int runningNodeCount() {
    return runningNodes.size();
  }

  /** Keeps copies read elsewhere (a stream's, from the stream protocol's metadata). */
  void record(QueueCopies read) {
    copies.put(read.queue(), read);
  }

  /**
   * Reads back (waiting for a stream's first statistics, and for a mirrored queue's mirrors) and
   * keeps the copies of a queue.
   *
   * @param expected copies to wait for (bounded; fewer are kept and reported if they never come)
   */
  QueueCopies record(String queue, int expected) throws IOException, InterruptedException {
    QueueCopies read = api.awaitCopies(queue, expected);
    copies.put(queue, read);
    return read;
  }

  /** Keeps the node leading one of the run's queues, for {@link #LEADERS_FACT}. */
  void recordLeader(String queue, String leader) {
    leaderByQueue.put(queue, leader);
  }

  /** How many of the run's queues have their leader recorded. */
  int leadersRecorded() {
    return leaderByQueue.size();
  }

  /**
   * The fact saying how the run's queues' leaders are spread: each node with the number of queues
   * it leads, e.g. {@code r1@localhost=2,r2@localhost=2,r3@localhost=2}.
   */
  static final String LEADERS_FACT = "rabbitmq.queueLeaders";

  /**
   * The common facts: {@code nodes} and {@code brokerVersion}, and once queues were recorded,
   * {@code replicas} (the fewest copies any of them has), {@code replicaNodes} (every node holding
   * one) and {@code rabbitmq.leaders}.
   */
  Map<String, String> facts() {
    Map<String, String> facts = new TreeMap<>();
    if (!readable()) {
      facts.put("rabbitmq.management", String.valueOf(unreachable));
      return facts;
    }
    facts.put(BrokerFactNames.NODES, String.valueOf(runningNodes.size()));
    facts.put(BrokerFactNames.BROKER_VERSION, version);
    if (!copies.isEmpty()) {
      int fewest = Integer.MAX_VALUE;
      TreeSet<String> nodes = new TreeSet<>();
      TreeSet<String> leaders = new TreeSet<>();
      for (QueueCopies q : copies.values()) {
        fewest = Math.min(fewest, q.members().size());
        nodes.addAll(q.members());
        if (q.leader() != null) {
          leaders.add(q.leader());
        }
      }
      facts.put(BrokerFactNames.REPLICAS, String.valueOf(fewest));
      facts.put(BrokerFactNames.REPLICA_NODES, String.join(",", nodes));
      facts.put("rabbitmq.leaders", String.join(",", leaders));
    }
    if (!leaderByQueue.isEmpty()) {
      Map<String, Integer> queuesLed = new TreeMap<>();
      leaderByQueue.values().forEach(node -> queuesLed.merge(node, 1, Integer::sum));
      StringBuilder spread = new StringBuilder();
      queuesLed.forEach(
          (node, count) ->
              spread.append(spread.length() == 0 ? "" : ",").append(node + "=" + count));
      facts.put(LEADERS_FACT, spread.toString());
    }
    return facts;
  }
}
