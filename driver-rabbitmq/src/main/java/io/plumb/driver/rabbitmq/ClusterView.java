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

  private final ManagementApi api;
  private final Map<String, QueueCopies> copies = new ConcurrentSkipListMap<>();
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

  /** Reads back (waiting for a stream's first statistics) and keeps the copies of a queue. */
  QueueCopies record(String queue) throws IOException, InterruptedException {
    QueueCopies read = api.awaitCopies(queue);
    copies.put(queue, read);
    return read;
  }

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
    return facts;
  }
}
