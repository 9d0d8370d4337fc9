package io.plumb.driver.kafka;

import io.plumb.driver.ClientWindow;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The Kafka driver's send and receive windows, from the client configs after their defaults. Kafka
 * bounds both in bytes, not messages: a producer holds at most {@code buffer.memory} of records not
 * yet acknowledged (send() waits for room beyond it), and a consumer acknowledges nothing per
 * message (offsets are committed about once a second), so what bounds its deliveries is a fetch:
 * {@code max.partition.fetch.bytes} per partition, at most {@code fetch.max.bytes} per fetch.
 */
final class KafkaWindows {

  private KafkaWindows() {}

  /**
   * The window facts: the send window always, the receive window once topics of {@code partitions}
   * partitions exist (it is per partition).
   */
  static Map<String, String> facts(
      ProducerConfig producer, Map<String, Object> consumerSettings, int partitions) {
    return ClientWindow.facts(
        send(producer),
        partitions < 1 ? null : receive(new ConsumerConfig(consumerSettings), partitions));
  }

  static ClientWindow send(ProducerConfig producer) {
    long buffer = producer.getLong(ProducerConfig.BUFFER_MEMORY_CONFIG);
    String acks = producer.getString(ProducerConfig.ACKS_CONFIG);
    return ClientWindow.of(
        buffer,
        "bytes",
        "buffer.memory "
            + buffer
            + " bytes of records not yet acknowledged"
            + (acks.equals("0") ? " (acks=0: a record leaves it once sent, unacknowledged)" : "")
            + ", send() waiting up to max.block.ms "
            + producer.getLong(ProducerConfig.MAX_BLOCK_MS_CONFIG)
            + " for room; they go out in batches of batch.size "
            + producer.getInt(ProducerConfig.BATCH_SIZE_CONFIG)
            + " bytes per partition, max.in.flight.requests.per.connection "
            + producer.getInt(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION)
            + " requests per broker; set it with --driver-set buffer.memory=N");
  }

  static ClientWindow receive(ConsumerConfig consumer, int partitions) {
    long perPartition = consumer.getInt(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG);
    long perFetch = consumer.getInt(ConsumerConfig.FETCH_MAX_BYTES_CONFIG);
    long partitionsTotal = perPartition * partitions;
    String tail =
        " (offsets are committed about once a second, nothing per message), handed over"
            + " max.poll.records "
            + consumer.getInt(ConsumerConfig.MAX_POLL_RECORDS_CONFIG)
            + " at a time; set it with --driver-set ";
    if (partitionsTotal <= perFetch) {
      return ClientWindow.of(
          partitionsTotal,
          "bytes",
          "max.partition.fetch.bytes "
              + perPartition
              + " per partition x "
              + ClientWindow.partitions(partitions)
              + ", under fetch.max.bytes "
              + perFetch
              + " per fetch"
              + tail
              + "max.partition.fetch.bytes=N");
    }
    return ClientWindow.of(
        perFetch,
        "bytes",
        "fetch.max.bytes "
            + perFetch
            + " per fetch from each broker, under max.partition.fetch.bytes "
            + perPartition
            + " x "
            + partitions
            + " partitions"
            + tail
            + "fetch.max.bytes=N");
  }

  /** The most partitions of any of {@code topics}; 0 for none. */
  static int mostPartitions(Collection<TopicDescription> topics) {
    return topics.stream().mapToInt(t -> t.partitions().size()).max().orElse(0);
  }
}
