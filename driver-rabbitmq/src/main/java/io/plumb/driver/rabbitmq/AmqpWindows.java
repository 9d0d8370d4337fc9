package io.plumb.driver.rabbitmq;

import io.plumb.driver.ClientWindow;
import java.util.Map;

/**
 * The AMQP driver's send and receive windows, from the settings in force: a producer publishes on a
 * channel per partition, each with its own {@code maxUnconfirmed}, and a consumer reads a
 * subscription's partition queues on a channel each, each with its own {@code prefetchCount}. So
 * one producer's window is the per-channel bound times the partitions, and one consumer's is at
 * most the prefetch times the partitions (a subscription's lone consumer reads every queue).
 */
final class AmqpWindows {

  private AmqpWindows() {}

  /**
   * The four window facts for topics of {@code partitions} partitions; none while no topic exists
   * ({@code partitions} 0), since both windows are per partition.
   */
  static Map<String, String> facts(RabbitMqConfig config, int partitions) {
    if (partitions < 1) {
      return Map.of();
    }
    return ClientWindow.facts(send(config, partitions), receive(config, partitions));
  }

  static ClientWindow send(RabbitMqConfig config, int partitions) {
    if (!config.publisherConfirms()) {
      return ClientWindow.unbounded(
          "publisherConfirms false: a send completes once written to the socket and nothing awaits"
              + " the broker (maxUnconfirmed "
              + config.maxUnconfirmed()
              + " applies with confirms only); set --driver-set publisherConfirms=true");
    }
    if (config.maxUnconfirmed() == 0) {
      return ClientWindow.unbounded(
          "maxUnconfirmed 0: no bound but the socket's on a channel per partition ("
              + ClientWindow.partitions(partitions)
              + "); set one with --driver-set maxUnconfirmed=N");
    }
    return ClientWindow.messages(
        (long) config.maxUnconfirmed() * partitions,
        "maxUnconfirmed "
            + config.maxUnconfirmed()
            + " per partition channel x "
            + ClientWindow.partitions(partitions)
            + "; set it with --driver-set maxUnconfirmed=N (0: no bound)");
  }

  static ClientWindow receive(RabbitMqConfig config, int partitions) {
    return ClientWindow.messages(
        (long) config.prefetchCount() * partitions,
        "prefetchCount "
            + config.prefetchCount()
            + " per partition queue x "
            + ClientWindow.partitions(partitions)
            + " (a consumer sharing its subscription reads fewer queues), acknowledged "
            + config.ackBatchSize()
            + " at a time (ackBatchSize); set it with --driver-set prefetchCount=N");
  }
}
