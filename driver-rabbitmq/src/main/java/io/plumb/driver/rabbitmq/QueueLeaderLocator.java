package io.plumb.driver.rabbitmq;

/**
 * Where the broker puts a new queue's leader (a quorum queue's or stream's leader, a classic
 * queue's master), by its own placement setting: the driver declares every queue over one
 * administrative connection, so without it every leader lands on the node that connection reached.
 */
public enum QueueLeaderLocator {
  /** Spread over the running nodes: the node leading the fewest queues, by the broker's count. */
  BALANCED("balanced", "min-masters"),
  /** The node the declaring connection is connected to (the broker's default). */
  CLIENT_LOCAL("client-local", "client-local");

  private final String replicatedValue;
  private final String classicValue;

  QueueLeaderLocator(String replicatedValue, String classicValue) {
    this.replicatedValue = replicatedValue;
    this.classicValue = classicValue;
  }

  /**
   * The declaration argument and its value for a queue of {@code type}: {@code
   * x-queue-leader-locator} for quorum queues and streams, {@code x-queue-master-locator} for
   * classic queues (which RabbitMQ 3.x refuses the former for).
   */
  String argument(QueueType type) {
    return type == QueueType.CLASSIC ? "x-queue-master-locator" : "x-queue-leader-locator";
  }

  String value(QueueType type) {
    return type == QueueType.CLASSIC ? classicValue : replicatedValue;
  }

  @Override
  public String toString() {
    return replicatedValue;
  }
}
