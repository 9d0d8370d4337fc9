package io.plumb.driver.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The run's topics on the broker: created with the file's settings and waited for until usable,
 * deleted and waited for until gone, and with {@code reset: true} what earlier runs left behind
 * removed. Remembers the topics it created and has not deleted.
 */
final class KafkaTopics {
  private static final Duration TOPIC_READY_TIMEOUT = Duration.ofSeconds(30);

  private static final int TOPICS_PER_REQUEST = 1_000;

  private final Admin admin;
  private final KafkaSettings settings;

  /** Topics this driver created and has not deleted: the ones whose replicas brokerFacts reads. */
  private final Set<String> createdTopics = ConcurrentHashMap.newKeySet();

  KafkaTopics(Admin admin, KafkaSettings settings) {
    this.admin = admin;
    this.settings = settings;
  }

  /** The topics created and not deleted, as they are now. */
  Set<String> created() {
    return Set.copyOf(createdTopics);
  }

  /** OMB's {@code reset: true}: remove what earlier runs left behind under this prefix. */
  void deleteLeftovers(String topicNamePrefix) throws Exception {
    Set<String> existing =
        admin
            .listTopics()
            .names()
            .get(TopicSettingsCheck.CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    List<String> leftovers = new ArrayList<>();
    for (String topic : existing) {
      if (topic.startsWith(topicNamePrefix)) {
        leftovers.add(topic);
      }
    }
    if (!leftovers.isEmpty()) {
      admin.deleteTopics(leftovers).all().get(60, TimeUnit.SECONDS);
    }
  }

  /**
   * Topics in CreateTopics requests of {@value #TOPICS_PER_REQUEST}, all sent at once (the admin
   * client pipelines them to the controller), then checked usable by batch: one request per
   * thousand topics instead of one per topic. Ten thousand single-topic requests and their describe
   * polls kept the controller busy for minutes.
   */
  CompletableFuture<Void> create(List<String> topics, int partitions) {
    // Any batch's progress counts: the broker creates the batches' logs one after another.
    AtomicLong lastProgress = new AtomicLong(System.nanoTime());
    List<CompletableFuture<Void>> batches = new ArrayList<>();
    for (int from = 0; from < topics.size(); from += TOPICS_PER_REQUEST) {
      List<String> batch =
          List.copyOf(topics.subList(from, Math.min(topics.size(), from + TOPICS_PER_REQUEST)));
      List<NewTopic> requests =
          batch.stream()
              .map(
                  topic ->
                      new NewTopic(topic, Optional.of(partitions), settings.replicationFactor())
                          .configs(settings.topicConfig()))
              .toList();
      batches.add(
          admin
              .createTopics(requests)
              .all()
              .toCompletionStage()
              .toCompletableFuture()
              .thenCompose(created -> awaitAllUsable(batch, partitions, lastProgress))
              .thenRun(() -> createdTopics.addAll(batch)));
    }
    return CompletableFuture.allOf(batches.toArray(CompletableFuture<?>[]::new));
  }

  /**
   * Completes once every topic of the batch is usable. The controller acknowledges a new topic
   * before the broker's metadata has it; until then produce, fetch and describeConfigs answer
   * UnknownTopicOrPartition. A topic is usable once it describes with a leader for every partition,
   * its configs can be read and every leader serves its partition ({@link LeadersServing}); each
   * check asks once about all the topics not yet usable, 50 ms after the previous one. The broker
   * creates each partition's log after the controller's answer, a few hundred a second on a small
   * host, so the wait gives up only after {@code TOPIC_READY_TIMEOUT} without any topic of any
   * batch becoming usable ({@code lastProgress}), not after a fixed time for the whole batch.
   */
  private CompletableFuture<Void> awaitAllUsable(
      List<String> pending, int partitions, AtomicLong lastProgress) {
    Map<String, KafkaFuture<TopicDescription>> described =
        admin.describeTopics(pending).topicNameValues();
    AtomicReference<Throwable> lastError = new AtomicReference<>();
    List<CompletableFuture<String>> led = new ArrayList<>();
    for (String topic : pending) {
      led.add(
          described
              .get(topic)
              .toCompletionStage()
              .toCompletableFuture()
              .handle(
                  (description, error) -> {
                    if (error != null) {
                      lastError.set(error);
                    }
                    return error == null
                            && description.partitions().size() == partitions
                            && description.partitions().stream()
                                .allMatch(p -> p.leader() != null && !p.leader().isEmpty())
                        ? topic
                        : null;
                  }));
    }
    return CompletableFuture.allOf(led.toArray(CompletableFuture<?>[]::new))
        .thenCompose(
            all -> {
              List<String> withLeaders =
                  led.stream().map(f -> f.join()).filter(t -> t != null).toList();
              return configsReadable(withLeaders)
                  .thenCompose(
                      readable -> LeadersServing.of(admin, List.copyOf(readable), partitions));
            })
        .thenCompose(
            usable -> {
              List<String> left = pending.stream().filter(t -> !usable.contains(t)).toList();
              if (left.isEmpty()) {
                return CompletableFuture.<Void>completedFuture(null);
              }
              long now = System.nanoTime();
              if (left.size() < pending.size()) {
                lastProgress.accumulateAndGet(now, Math::max);
              } else if (now - lastProgress.get() > TOPIC_READY_TIMEOUT.toNanos()) {
                return CompletableFuture.<Void>failedFuture(
                    new TimeoutException(
                        String.format(
                            "%d topic(s) from %s not usable: no topic became usable in %d s"
                                + " (last answer: %s)",
                            left.size(),
                            left.get(0),
                            TOPIC_READY_TIMEOUT.toSeconds(),
                            lastError.get())));
              }
              return shortlyThen(() -> awaitAllUsable(left, partitions, lastProgress));
            });
  }

  /** The topics of {@code topics} whose configs the broker can read. */
  private CompletableFuture<Set<String>> configsReadable(List<String> topics) {
    if (topics.isEmpty()) {
      return CompletableFuture.completedFuture(Set.of());
    }
    Map<ConfigResource, KafkaFuture<Config>> configs =
        admin
            .describeConfigs(
                topics.stream()
                    .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic))
                    .toList())
            .values();
    List<CompletableFuture<String>> readable = new ArrayList<>();
    configs.forEach(
        (resource, future) ->
            readable.add(
                future
                    .toCompletionStage()
                    .toCompletableFuture()
                    .handle((config, error) -> error == null ? resource.name() : null)));
    return CompletableFuture.allOf(readable.toArray(CompletableFuture<?>[]::new))
        .thenApply(
            all ->
                readable.stream()
                    .map(CompletableFuture::join)
                    .filter(t -> t != null)
                    .collect(Collectors.toSet()));
  }

  CompletableFuture<Void> delete(List<String> topics) {
    if (topics.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    long deadline = System.nanoTime() + TOPIC_READY_TIMEOUT.toNanos();
    return admin
        .deleteTopics(topics)
        .all()
        .toCompletionStage()
        .toCompletableFuture()
        .thenCompose(deleted -> awaitGone(topics, deadline))
        .thenRun(() -> topics.forEach(createdTopics::remove));
  }

  /**
   * As with creation, the controller acknowledges a deletion before the broker's metadata drops the
   * topic; a topic listed again right after could not be created anew. Completes once no topic of
   * {@code topics} is listed, checking every 50 ms until {@code deadline}.
   */
  private CompletableFuture<Void> awaitGone(List<String> topics, long deadline) {
    return admin
        .listTopics()
        .names()
        .toCompletionStage()
        .toCompletableFuture()
        .thenCompose(
            names -> {
              List<String> left = topics.stream().filter(names::contains).toList();
              if (left.isEmpty()) {
                return CompletableFuture.<Void>completedFuture(null);
              }
              long now = System.nanoTime();
              // Thousands of deletions take longer than one: wait while the list shrinks.
              long next =
                  left.size() < topics.size() ? now + TOPIC_READY_TIMEOUT.toNanos() : deadline;
              if (now > next) {
                return CompletableFuture.<Void>failedFuture(
                    new TimeoutException(
                        String.format(
                            "%d topic(s) from %s still listed: none went in the %d s after"
                                + " their deletion",
                            left.size(), left.get(0), TOPIC_READY_TIMEOUT.toSeconds())));
              }
              return shortlyThen(() -> awaitGone(left, next));
            });
  }

  /** {@code next}, 50 ms from now: the pause between two checks of a topic's state. */
  private static CompletableFuture<Void> shortlyThen(Supplier<CompletableFuture<Void>> next) {
    return CompletableFuture.supplyAsync(
            () -> null, CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS))
        .thenCompose(ignored -> next.get());
  }
}
