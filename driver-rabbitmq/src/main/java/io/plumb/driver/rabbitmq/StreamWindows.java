package io.plumb.driver.rabbitmq;

import io.plumb.driver.ClientWindow;
import java.util.Map;

/**
 * The stream-protocol driver's send and receive windows, from the settings in force. A benchmark
 * producer holds one client producer per partition stream, each with its own {@code
 * maxUnconfirmedMessages}; a consumer reads each of its partition streams with {@code
 * initialCredits} credits, one chunk (a batch as the broker stored it) per credit, given back as
 * each chunk arrives. So both windows are per partition, times the partitions.
 */
final class StreamWindows {

  private StreamWindows() {}

  /** The four window facts for topics of {@code partitions} partitions; none while none exists. */
  static Map<String, String> facts(RabbitMqStreamConfig config, int partitions) {
    if (partitions < 1) {
      return Map.of();
    }
    return ClientWindow.facts(send(config, partitions), receive(config, partitions));
  }

  static ClientWindow send(RabbitMqStreamConfig config, int partitions) {
    return ClientWindow.messages(
        (long) config.maxUnconfirmedMessages() * partitions,
        "maxUnconfirmedMessages "
            + config.maxUnconfirmedMessages()
            + " per partition stream x "
            + ClientWindow.partitions(partitions)
            + " (send() blocks beyond it); set it with --driver-set maxUnconfirmedMessages=N");
  }

  static ClientWindow receive(RabbitMqStreamConfig config, int partitions) {
    return ClientWindow.of(
        (long) config.initialCredits() * partitions,
        "chunks",
        "initialCredits "
            + config.initialCredits()
            + " chunks per partition stream x "
            + ClientWindow.partitions(partitions)
            + " (a chunk is a batch as the broker stored it, up to batchSize "
            + config.batchSize()
            + " messages from this driver's producers); set it with --driver-set"
            + " initialCredits=N");
  }
}
