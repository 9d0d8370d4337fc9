package io.plumb.driver.rabbitmq;

import io.plumb.driver.ClientWindow;

/**
 * The AMQP driver's send and receive windows, from the settings in force: a producer publishes on a
 * channel per partition, each with its own {@code maxUnconfirmed}, and a consumer reads a
 * subscription's partition queues on a channel each, each with its own {@code prefetchCount}. So
 * one producer's window is the per-channel bound times the partitions, and one consumer's is at
 * most the prefetch times the partitions (a subscription's lone consumer reads every queue).
 */
record AmqpWindows(RabbitMqConfig config) implements PartitionWindows {

  @Override
  public ClientWindow send(int partitions) {
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
    return PerPartitionBound.messages("maxUnconfirmed", config.maxUnconfirmed(), "channel")
        .times(partitions, "; set it with --driver-set maxUnconfirmed=N (0: no bound)");
  }

  @Override
  public ClientWindow receive(int partitions) {
    return PerPartitionBound.messages("prefetchCount", config.prefetchCount(), "queue")
        .times(
            partitions,
            " (a consumer sharing its subscription reads fewer queues), acknowledged "
                + config.ackBatchSize()
                + " at a time (ackBatchSize); set it with --driver-set prefetchCount=N");
  }
}
