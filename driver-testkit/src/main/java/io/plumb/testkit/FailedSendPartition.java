package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A failed send names the partition it was routed to, as an acknowledged one does: the framework
 * opens a partition's unavailability window only for sends that name their partition, so a driver
 * whose failures name none (-1) makes the worst partition's outage look shorter than it was.
 */
public final class FailedSendPartition {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final int PARTITIONS = 3;
  private static final int KEYS = 6;

  private FailedSendPartition() {}

  /**
   * On {@code topic}, created with 3 partitions on {@code driver} and deleted again after (up to
   * {@code timeout} for each), one producer sends each of 6 keys once with a small body, which must
   * be acknowledged, then once with {@code oversizedBytes}, which the client or broker must refuse;
   * each refusal must name the partition its key's acknowledged send named.
   *
   * @throws AssertionError otherwise
   */
  public static void assertNamed(
      BenchmarkDriver driver, String topic, int oversizedBytes, Duration timeout) throws Exception {
    long seconds = timeout.toSeconds();
    driver.createTopic(topic, PARTITIONS).get(seconds, TimeUnit.SECONDS);
    try (BenchmarkProducer producer = driver.createProducer(topic).get(seconds, TimeUnit.SECONDS)) {
      assertNamed(producer, oversizedBytes);
    } finally {
      driver.deleteTopics(List.of(topic)).get(seconds, TimeUnit.SECONDS);
    }
  }

  private static void assertNamed(BenchmarkProducer producer, int oversizedBytes)
      throws InterruptedException {
    Acknowledgements acknowledged = new Acknowledgements(KEYS);
    Acknowledgements failed = new Acknowledgements(KEYS);
    for (int k = 0; k < KEYS; k++) {
      producer.send("key-" + k, new byte[100], k, acknowledged);
    }
    check(List.of().equals(acknowledged.await(WAIT)), "acknowledged sends failed");
    for (int k = 0; k < KEYS; k++) {
      producer.send("key-" + k, new byte[oversizedBytes], k, failed);
    }
    List<String> problems = failed.await(WAIT);
    check(problems.size() == KEYS, "every oversized send fails: " + problems);
    for (int k = 0; k < KEYS; k++) {
      int partition = acknowledged.partitionOf(k);
      check(partition >= 0, "acknowledged send " + k + " named no partition");
      check(
          failed.partitionOf(k) == partition,
          "the failed send of key-"
              + k
              + " names partition "
              + failed.partitionOf(k)
              + ", its acknowledged send "
              + partition);
    }
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }
}
