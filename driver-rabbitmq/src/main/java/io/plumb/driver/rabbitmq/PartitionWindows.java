package io.plumb.driver.rabbitmq;

import io.plumb.driver.ClientWindow;
import java.util.Map;

/**
 * A driver's send and receive windows for topics of a given partition count. Both RabbitMQ drivers
 * bound each partition's channel, queue or stream on its own, so each window grows with the
 * partitions and there is none to report while no topic exists.
 */
interface PartitionWindows {

  ClientWindow send(int partitions);

  ClientWindow receive(int partitions);

  /**
   * The four window facts for topics of {@code partitions} partitions; none while no topic exists
   * ({@code partitions} 0), since both windows are per partition.
   */
  default Map<String, String> facts(int partitions) {
    if (partitions < 1) {
      return Map.of();
    }
    return ClientWindow.facts(send(partitions), receive(partitions));
  }
}
