package io.plumb.driver.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * Which new topics have every partition served by its leader: a ListOffsets answered by the
 * partition's leader, which the broker gives only once it has made itself leader of that partition.
 *
 * <p>Why the describe and config checks are not enough: the broker publishes a new topic in its
 * metadata (so describe shows a leader) a moment before it becomes the partition's leader. An
 * idempotent producer whose first request lands in that moment gets NOT_LEADER_OR_FOLLOWER, while a
 * later request of it, with higher sequence numbers, is written; the first one's retries then fail
 * with OUT_OF_ORDER_SEQUENCE_NUMBER until its delivery timeout, and its messages are lost (Kafka
 * 4.1, KAFKA-15591). Seen here as 50 of 700 messages never received in a driver test.
 */
final class LeadersServing {
  /** One check's bound: a leader not serving yet is asked again at the caller's next check. */
  private static final int CHECK_TIMEOUT_MS = 5_000;

  private LeadersServing() {}

  static CompletableFuture<Set<String>> of(Admin admin, List<String> topics, int partitions) {
    if (topics.isEmpty()) {
      return CompletableFuture.completedFuture(Set.of());
    }
    Map<TopicPartition, OffsetSpec> asked = new HashMap<>();
    for (String topic : topics) {
      for (int partition = 0; partition < partitions; partition++) {
        asked.put(new TopicPartition(topic, partition), OffsetSpec.latest());
      }
    }
    var result = admin.listOffsets(asked, new ListOffsetsOptions().timeoutMs(CHECK_TIMEOUT_MS));
    Map<String, List<CompletableFuture<Boolean>>> answers = new HashMap<>();
    for (TopicPartition partition : asked.keySet()) {
      answers
          .computeIfAbsent(partition.topic(), topic -> new ArrayList<>())
          .add(
              result
                  .partitionResult(partition)
                  .toCompletionStage()
                  .toCompletableFuture()
                  .handle((offsets, error) -> error == null));
    }
    List<CompletableFuture<Boolean>> all =
        answers.values().stream().flatMap(List::stream).collect(Collectors.toList());
    return CompletableFuture.allOf(all.toArray(CompletableFuture<?>[]::new))
        .thenApply(
            done ->
                answers.entrySet().stream()
                    .filter(e -> e.getValue().stream().allMatch(CompletableFuture::join))
                    .map(Map.Entry::getKey)
                    .collect(Collectors.toSet()));
  }
}
