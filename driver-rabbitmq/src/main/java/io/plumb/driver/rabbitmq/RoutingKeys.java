package io.plumb.driver.rabbitmq;

/** Routing key and queue naming shared by producers and consumers of a topic. */
final class RoutingKeys {
  private RoutingKeys() {}

  /** Partition {@code i} is bound and published with routing key {@code "i"}. */
  static String[] forPartitions(int partitions) {
    String[] keys = new String[partitions];
    for (int i = 0; i < partitions; i++) {
      keys[i] = Integer.toString(i);
    }
    return keys;
  }

  /** One queue per partition per subscription. */
  static String queueName(String topic, String subscription, int partition) {
    return topic + "." + subscription + "." + partition;
  }
}
