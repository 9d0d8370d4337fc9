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

  private BrokerFactNames() {}
}
