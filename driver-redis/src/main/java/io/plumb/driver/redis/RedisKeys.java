package io.plumb.driver.redis;

import io.plumb.driver.MessageListener;
import java.nio.charset.StandardCharsets;

/**
 * How a Plumb topic maps onto Redis: partition {@code p} of topic {@code t} is the stream (or
 * Pub/Sub channel) {@code t-p}, so a keyed workload spreads over several keys, which a Redis
 * Cluster would also spread over shards. The partition count is kept in {@code t:partitions} so
 * producers and consumers in other processes find it.
 */
final class RedisKeys {

  private RedisKeys() {}

  static byte[] partition(String topic, int partition) {
    return (topic + "-" + partition).getBytes(StandardCharsets.UTF_8);
  }

  static byte[][] partitions(String topic, int partitions) {
    byte[][] keys = new byte[partitions][];
    for (int p = 0; p < partitions; p++) {
      keys[p] = partition(topic, p);
    }
    return keys;
  }

  static String partitionCountKey(String topic) {
    return topic + ":partitions";
  }

  /** Length of {@code "<topic>-"} in bytes: where the partition digits start. */
  static int prefixLength(String topic) {
    return topic.getBytes(StandardCharsets.UTF_8).length + 1;
  }

  /** Partition index from a key {@code <topic>-<digits>}, parsed in place for every message. */
  static int partitionOf(byte[] key, int prefixLength) {
    if (key == null || key.length <= prefixLength) {
      return MessageListener.UNKNOWN_PARTITION;
    }
    int value = 0;
    for (int i = prefixLength; i < key.length; i++) {
      int d = key[i] - '0';
      if (d < 0 || d > 9) {
        return MessageListener.UNKNOWN_PARTITION;
      }
      value = value * 10 + d;
    }
    return value;
  }
}
