package io.plumb.driver.pulsar;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.pulsar.client.admin.PulsarAdmin;

/**
 * The run's partitioned topics, created and deleted through the admin API. Remembers the topics it
 * created and has not deleted, with their partition counts.
 */
final class PulsarTopics {
  private static final int ADMIN_REQUESTS_IN_FLIGHT = 32;

  private final PulsarAdmin admin;

  /** Topics this instance created and has not deleted, with their partition counts. */
  private final Map<String, Integer> createdTopics = new ConcurrentHashMap<>();

  PulsarTopics(PulsarAdmin admin) {
    this.admin = admin;
  }

  /** The topics created and not deleted, with their partition counts: a live, read-only view. */
  Map<String, Integer> created() {
    return Collections.unmodifiableMap(createdTopics);
  }

  /**
   * The partition count of {@code topic}: the one this instance created it with, else what the
   * broker reports (0 for a topic without partitions), waiting at most {@code timeout} for it.
   */
  int partitions(String topic, Duration timeout) throws Exception {
    Integer created = createdTopics.get(topic);
    if (created != null) {
      return created;
    }
    return admin
        .topics()
        .getPartitionedTopicMetadataAsync(topic)
        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .partitions;
  }

  CompletableFuture<Void> create(String topic, int partitions) {
    return admin
        .topics()
        .createPartitionedTopicAsync(topic, partitions)
        .thenRun(() -> createdTopics.put(topic, partitions));
  }

  /**
   * In parallel, at most {@value #ADMIN_REQUESTS_IN_FLIGHT} requests at a time: ten thousand at
   * once queue in the admin client's few connections until they time out.
   */
  CompletableFuture<Void> createAll(List<String> topics, int partitions) {
    return inParallel(topics, topic -> create(topic, partitions));
  }

  CompletableFuture<Void> delete(List<String> topics) {
    return inParallel(
        topics,
        t ->
            admin
                .topics()
                .deletePartitionedTopicAsync(t, true)
                .thenRun(() -> createdTopics.remove(t)));
  }

  /**
   * Applies {@code action} to every topic, {@value #ADMIN_REQUESTS_IN_FLIGHT} lanes each taking the
   * next topic when its previous request completes; fails with the first failure.
   */
  private static CompletableFuture<Void> inParallel(
      List<String> topics, Function<String, CompletableFuture<Void>> action) {
    AtomicInteger next = new AtomicInteger();
    CompletableFuture<?>[] lanes =
        new CompletableFuture<?>[Math.min(ADMIN_REQUESTS_IN_FLIGHT, topics.size())];
    for (int i = 0; i < lanes.length; i++) {
      lanes[i] = lane(topics, next, action);
    }
    return CompletableFuture.allOf(lanes);
  }

  private static CompletableFuture<Void> lane(
      List<String> topics, AtomicInteger next, Function<String, CompletableFuture<Void>> action) {
    int index = next.getAndIncrement();
    if (index >= topics.size()) {
      return CompletableFuture.completedFuture(null);
    }
    return action.apply(topics.get(index)).thenComposeAsync(done -> lane(topics, next, action));
  }
}
