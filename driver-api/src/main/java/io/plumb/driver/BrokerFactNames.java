package io.plumb.driver;

/**
 * Names of the {@link BenchmarkDriver#brokerFacts() broker facts} that every driver reports the
 * same way, so results from different brokers compare field by field. Each value is what the broker
 * itself said, never what the driver file asked for.
 */
public final class BrokerFactNames {

  /** Copies of the run's topics that the broker reports, as a whole number (e.g. "3"). */
  public static final String REPLICAS = "replicas";

  /** The nodes that hold those copies, comma-separated, as the broker names them. */
  public static final String REPLICA_NODES = "replicaNodes";

  /** Nodes in the cluster the driver is connected to, as a whole number. */
  public static final String NODES = "nodes";

  /** The broker's own version string. */
  public static final String BROKER_VERSION = "brokerVersion";

  /**
   * The largest message body, in bytes, that this driver can send as configured, as a whole number:
   * the smallest of the client's and the broker's limits, less what the driver adds around the
   * body. Reported by drivers whose broker or client has such a limit; the run refuses a workload
   * whose {@code messageSize} is larger before any topic exists, instead of failing every send.
   */
  public static final String MAX_MESSAGE_BYTES = "maxMessageBytes";

  /**
   * Which setting decides {@link #MAX_MESSAGE_BYTES}, with its value, and how to raise it: the
   * refusal quotes it (e.g. "producerConfig max.request.size 1048576, less 100 bytes of record and
   * batch framing; raise it with --driver-set producerConfig.max.request.size=N").
   */
  public static final String MAX_MESSAGE_BYTES_LIMIT = "maxMessageBytes.limit";

  private BrokerFactNames() {}
}
