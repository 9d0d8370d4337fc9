package io.plumb.driver.rabbitmq;

/**
 * Picks a partition per message: by key hash when the workload sends keys (so one key stays in
 * order on one partition), else round robin. Used by one producer; the unsynchronized counter may
 * skip or repeat under concurrent senders, which only blurs the spread, never loses a message.
 */
final class Partitioner {
  private final int partitions;
  private int next;

  Partitioner(int partitions) {
    this.partitions = partitions;
  }

  int partitionFor(String key) {
    if (key != null) {
      return Math.floorMod(key.hashCode(), partitions);
    }
    int p = next;
    next = p + 1 == partitions ? 0 : p + 1;
    return p;
  }
}
