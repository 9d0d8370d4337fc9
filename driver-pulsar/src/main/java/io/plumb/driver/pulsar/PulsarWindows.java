package io.plumb.driver.pulsar;

import io.plumb.driver.ClientWindow;
import java.util.Map;

/**
 * The Pulsar driver's send and receive windows, as the client applies the settings to a partitioned
 * topic (every topic of this driver is one). A producer is a producer per partition, each allowed
 * {@code maxPendingMessages} ({@code pendingQueueSize}) unacknowledged sends; 0 sets no count and
 * leaves the client's memory limit, shared by the whole client, as the only bound. A consumer is a
 * consumer per partition, each prefetching {@code receiverQueueSize} messages, which the client
 * lowers to {@code maxTotalReceiverQueueSizeAcrossPartitions} divided by the partitions (Pulsar
 * 4.0's MultiTopicsConsumerImpl).
 */
final class PulsarWindows {

  private PulsarWindows() {}

  /** The four window facts for topics of {@code partitions} partitions; none while none exists. */
  static Map<String, String> facts(PulsarConfig config, int partitions) {
    if (partitions < 1) {
      return Map.of();
    }
    return ClientWindow.facts(send(config, partitions), receive(config, partitions));
  }

  static ClientWindow send(PulsarConfig config, int partitions) {
    PulsarProducerSettings p = config.producer();
    String full =
        p.blockIfQueueFull()
            ? "send() blocks while it is full"
            : "a send beyond it fails (blockIfQueueFull false)";
    if (p.pendingQueueSize() == 0 && config.client().clientMemoryLimitMB() == 0) {
      return ClientWindow.unbounded(
          "producer.pendingQueueSize 0 and client.clientMemoryLimitMB 0 (no memory limit): nothing"
              + " bounds the pending messages; set a count with --driver-set"
              + " producer.pendingQueueSize=N");
    }
    if (p.pendingQueueSize() == 0) {
      return ClientWindow.unbounded(
          "producer.pendingQueueSize 0: no count per producer, only "
              + memoryLimit(config)
              + " of pending messages shared by the whole client ("
              + full
              + "); set a count with --driver-set producer.pendingQueueSize=N");
    }
    return ClientWindow.messages(
        (long) p.pendingQueueSize() * partitions,
        "producer.pendingQueueSize "
            + p.pendingQueueSize()
            + " per partition producer x "
            + ClientWindow.partitions(partitions)
            + ", within "
            + memoryLimit(config)
            + " ("
            + full
            + "); set it with --driver-set producer.pendingQueueSize=N (0: no count)");
  }

  /** The client's memory bound as a fact's words; the client takes 0 as no limit at all. */
  private static String memoryLimit(PulsarConfig config) {
    long megabytes = config.client().clientMemoryLimitMB();
    return megabytes == 0
        ? "client.clientMemoryLimitMB 0 (no memory limit)"
        : "client.clientMemoryLimitMB " + megabytes + " MB";
  }

  static ClientWindow receive(PulsarConfig config, int partitions) {
    PulsarConsumerSettings c = config.consumer();
    int shareOfTotal = c.maxTotalReceiverQueueSizeAcrossPartitions() / partitions;
    if (shareOfTotal < c.receiverQueueSize()) {
      return ClientWindow.messages(
          Math.max(1, (long) shareOfTotal * partitions),
          "consumer.maxTotalReceiverQueueSizeAcrossPartitions "
              + c.maxTotalReceiverQueueSizeAcrossPartitions()
              + " over "
              + ClientWindow.partitions(partitions)
              + ", below receiverQueueSize "
              + c.receiverQueueSize()
              + " per partition; set it with --driver-set"
              + " consumer.maxTotalReceiverQueueSizeAcrossPartitions=N");
    }
    return ClientWindow.messages(
        Math.max(1, (long) c.receiverQueueSize() * partitions),
        "consumer.receiverQueueSize "
            + c.receiverQueueSize()
            + " per partition consumer x "
            + ClientWindow.partitions(partitions)
            + " (within maxTotalReceiverQueueSizeAcrossPartitions "
            + c.maxTotalReceiverQueueSizeAcrossPartitions()
            + "); set it with --driver-set consumer.receiverQueueSize=N");
  }
}
