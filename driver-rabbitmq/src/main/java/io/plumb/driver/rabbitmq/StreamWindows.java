package io.plumb.driver.rabbitmq;

import io.plumb.driver.ClientWindow;

/**
 * The stream-protocol driver's send and receive windows, from the settings in force. A benchmark
 * producer holds one client producer per partition stream, each with its own {@code
 * maxUnconfirmedMessages}; a consumer reads each of its partition streams with {@code
 * initialCredits} credits, one chunk (a batch as the broker stored it) per credit, given back as
 * each chunk arrives. So both windows are per partition, times the partitions.
 */
record StreamWindows(RabbitMqStreamConfig config) implements PartitionWindows {

  @Override
  public ClientWindow send(int partitions) {
    return PerPartitionBound.messages(
            "maxUnconfirmedMessages", config.maxUnconfirmedMessages(), "stream")
        .times(
            partitions,
            " (send() blocks beyond it); set it with --driver-set maxUnconfirmedMessages=N");
  }

  @Override
  public ClientWindow receive(int partitions) {
    return new PerPartitionBound("initialCredits", config.initialCredits(), "chunks", "stream")
        .times(
            partitions,
            " (a chunk is a batch as the broker stored it, up to batchSize "
                + config.batchSize()
                + " messages from this driver's producers); set it with --driver-set"
                + " initialCredits=N");
  }
}
