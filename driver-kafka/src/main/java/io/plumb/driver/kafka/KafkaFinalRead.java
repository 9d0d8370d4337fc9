package io.plumb.driver.kafka;

import io.plumb.driver.MessageListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads a topic to its end once the run is over: a fresh consumer without a group assigns itself
 * every partition, reads from the log's start (each run writes to topics of its own, so that is the
 * run's first offset) up to the end offsets the broker reported when the read started, and hands
 * each record over with its partition number, as the run's consumers do.
 */
final class KafkaFinalRead {
  /** More partitions than this are summed up in the end's description rather than listed. */
  private static final int PARTITIONS_LISTED = 8;

  private static final Duration POLL = Duration.ofMillis(200);

  private KafkaFinalRead() {}

  /**
   * @param consumerProperties the run's consumer settings (security, isolation level, ...); the
   *     group is dropped and nothing is committed
   * @return the end offsets read to, e.g. "end offsets 1,204 + 1,198 = 2,402 on 2 partitions"
   */
  static String read(
      Map<String, Object> consumerProperties, String topic, MessageListener sink, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Object> properties = new HashMap<>(consumerProperties);
    properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
    properties.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(properties)) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, left(deadline));
      if (infos == null || infos.isEmpty()) {
        throw new IllegalStateException("topic " + topic + " has no partitions");
      }
      List<TopicPartition> partitions =
          infos.stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .sorted(Comparator.comparingInt(TopicPartition::partition))
              .toList();
      consumer.assign(partitions);
      Map<TopicPartition, Long> start = consumer.beginningOffsets(partitions, left(deadline));
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, left(deadline));
      consumer.seekToBeginning(partitions);
      List<TopicPartition> unfinished = new ArrayList<>();
      for (TopicPartition partition : partitions) {
        if (end.get(partition) > start.get(partition)) {
          unfinished.add(partition);
        }
      }
      consumer.pause(
          partitions.stream().filter(p -> !unfinished.contains(p)).collect(Collectors.toList()));
      while (!unfinished.isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new TimeoutException(
              String.format(
                  "%s: end offsets not reached within %d s; short on %s",
                  topic, timeout.toSeconds(), shortfall(consumer, unfinished, end)));
        }
        for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
          TopicPartition partition = new TopicPartition(topic, record.partition());
          if (record.offset() < end.get(partition)) {
            KafkaHeader.deliver(record, sink);
          }
        }
        for (int i = unfinished.size() - 1; i >= 0; i--) {
          TopicPartition partition = unfinished.get(i);
          if (consumer.position(partition, left(deadline)) >= end.get(partition)) {
            consumer.pause(List.of(partition));
            unfinished.remove(i);
          }
        }
      }
      return describe(partitions, start, end);
    }
  }

  private static String shortfall(
      KafkaConsumer<String, byte[]> consumer,
      List<TopicPartition> unfinished,
      Map<TopicPartition, Long> end) {
    return unfinished.stream()
        .map(
            p -> "partition " + p.partition() + " at " + consumer.position(p) + " of " + end.get(p))
        .collect(Collectors.joining(", "));
  }

  static String describe(
      List<TopicPartition> partitions,
      Map<TopicPartition, Long> start,
      Map<TopicPartition, Long> end) {
    long total = 0;
    long trimmed = 0;
    for (TopicPartition partition : partitions) {
      total += end.get(partition);
      trimmed += start.get(partition);
    }
    String offsets =
        partitions.size() > PARTITIONS_LISTED || partitions.size() == 1
            ? String.format("%,d", total)
            : partitions.stream()
                    .map(p -> String.format("%,d", end.get(p)))
                    .collect(Collectors.joining(" + "))
                + String.format(" = %,d", total);
    String described =
        String.format("end offsets %s on %d partition(s)", offsets, partitions.size());
    // Retention could have removed the log's start: those messages were never there to read.
    return trimmed == 0 ? described : described + String.format(", log starting %,d in", trimmed);
  }

  private static Duration left(long deadline) {
    return Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
  }
}
