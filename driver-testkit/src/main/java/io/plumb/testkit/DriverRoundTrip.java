package io.plumb.testkit;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A test harness for drivers: sends keyed messages through a driver to two subscriptions (one with
 * two consumers) and checks that every send completes and each subscription receives every message
 * exactly once, with each key always on the same partition. Drivers' tests use it against their
 * real broker, next to {@link SmokeRun}, which runs the whole engine. Failed checks throw {@link
 * AssertionError}, which test frameworks report as failures.
 */
public final class DriverRoundTrip {

  public static final int PARTITIONS = 3;
  static final int KEYS = 60;

  /** What one subscription received. */
  public static final class Subscription implements MessageListener {
    final String name;
    final int expected;
    final AtomicInteger[] counts;
    final AtomicInteger total = new AtomicInteger();
    final AtomicInteger distinct = new AtomicInteger();
    final Map<Integer, Integer> partitionOfKey = new ConcurrentHashMap<>();
    final Set<Integer> keysOnTwoPartitions = ConcurrentHashMap.newKeySet();
    final Set<Integer> partitions = ConcurrentHashMap.newKeySet();
    // The partition each message arrived on, by sequence (the last arrival's).
    final AtomicIntegerArray arrivedOn;
    final List<Throwable> failures = new CopyOnWriteArrayList<>();
    final CountDownLatch all = new CountDownLatch(1);

    Subscription(String name, int expected) {
      this.name = name;
      this.expected = expected;
      this.counts = new AtomicInteger[expected];
      this.arrivedOn = new AtomicIntegerArray(expected);
      for (int i = 0; i < expected; i++) {
        counts[i] = new AtomicInteger();
      }
    }

    /** A per-consumer listener that also counts what that member got. */
    MessageListener member(AtomicInteger memberCount) {
      return new MessageListener() {
        @Override
        public void received(byte[] payload, int partition) {
          memberCount.incrementAndGet();
          Subscription.this.received(payload, partition);
        }

        @Override
        public void failed(Throwable error) {
          Subscription.this.failed(error);
        }
      };
    }

    @Override
    public void received(byte[] payload, int partition) {
      ByteBuffer b = ByteBuffer.wrap(payload);
      int seq = b.getInt();
      int key = b.getInt();
      total.incrementAndGet();
      partitions.add(partition);
      Integer first = partitionOfKey.putIfAbsent(key, partition);
      if (first != null && first != partition) {
        keysOnTwoPartitions.add(key);
      }
      if (seq >= 0 && seq < expected) {
        arrivedOn.set(seq, partition);
      }
      if (seq >= 0 && seq < expected && counts[seq].getAndIncrement() == 0) {
        if (distinct.incrementAndGet() == expected) {
          all.countDown();
        }
      }
    }

    @Override
    public void failed(Throwable error) {
      failures.add(error);
    }

    void assertExactlyOnce() {
      List<Integer> missing = new ArrayList<>();
      List<Integer> duplicated = new ArrayList<>();
      for (int i = 0; i < expected; i++) {
        int c = counts[i].get();
        if (c == 0) {
          missing.add(i);
        } else if (c > 1) {
          duplicated.add(i);
        }
      }
      assertTrue(
          missing.isEmpty(),
          name + ": " + missing.size() + " messages never received, first " + head(missing));
      assertTrue(
          duplicated.isEmpty(),
          name + ": " + duplicated.size() + " messages received twice, first " + head(duplicated));
      assertEquals(expected, total.get(), name + ": total deliveries");
      assertTrue(failures.isEmpty(), name + ": consumer failures " + failures);
      assertTrue(keysOnTwoPartitions.isEmpty(), name + ": keys seen on two partitions");
      assertEquals(
          new TreeSet<>(List.of(0, 1, 2)),
          new TreeSet<>(partitions),
          name + ": partitions messages arrived on");
    }

    private static List<Integer> head(List<Integer> list) {
      return list.subList(0, Math.min(5, list.size()));
    }
  }

  /** A topic name not used before: {@code prefix}, a dash and the clock in hexadecimal. */
  public static String newTopicName(String prefix) {
    return prefix + "-" + Long.toHexString(System.nanoTime());
  }

  /**
   * A listener for a consumer whose messages a test does not count (one that only shows the
   * broker's view of a consumer): it drops them, and a failure fails the test when it happens.
   */
  public static MessageListener discarding() {
    return new MessageListener() {
      @Override
      public void received(byte[] payload, int partition) {}

      @Override
      public void failed(Throwable error) {
        throw new AssertionError("consumer failed", error);
      }
    };
  }

  /** Outcome of one run, for further checks by the caller. */
  public record Result(String topic, Subscription shared, Subscription single, int[] memberCounts) {

    /** Both members of subscription 'shared' got some of its messages, and together all. */
    public void assertSharedBetweenMembers() {
      int a = memberCounts[0];
      int b = memberCounts[1];
      assertEquals(
          shared.expected, a + b, "the two members of one subscription split the messages");
      assertTrue(a > 0 && b > 0, "both members of one subscription got work: " + a + " and " + b);
    }
  }

  /** Checks the broker's view of a topic after the run, before the topic is deleted. */
  @FunctionalInterface
  public interface TopicCheck {
    void check(String topic) throws Exception;
  }

  /** Something the caller does once every consumer exists, before the first send. */
  @FunctionalInterface
  public interface BeforeSending {
    void run(String topic) throws Exception;
  }

  /**
   * What to run: {@code messages}, waiting at most {@code timeoutSeconds} for the sends and for
   * each subscription; {@code sharedMembers} consumers in subscription 'shared' (1 for a broker's
   * exclusive subscriptions, else 2); {@code beforeSending} once the consumers exist (for a broker
   * that must see both members before it shares); {@code check} after every client is closed and
   * before the topic is deleted.
   */
  public record Plan(
      int messages,
      long timeoutSeconds,
      int sharedMembers,
      BeforeSending beforeSending,
      TopicCheck check) {

    /** Two members in 'shared', nothing before sending, no check of the topic. */
    public static Plan of(int messages, long timeoutSeconds) {
      return new Plan(messages, timeoutSeconds, 2, topic -> {}, topic -> {});
    }

    public Plan withSharedMembers(int members) {
      return new Plan(messages, timeoutSeconds, members, beforeSending, check);
    }

    public Plan beforeSending(BeforeSending step) {
      return new Plan(messages, timeoutSeconds, sharedMembers, step, check);
    }

    public Plan checking(TopicCheck topicCheck) {
      return new Plan(messages, timeoutSeconds, sharedMembers, beforeSending, topicCheck);
    }
  }

  /**
   * Runs {@code messages} through a new topic of {@link #PARTITIONS} partitions, waiting at most
   * {@code timeoutSeconds} for sends and for each subscription; {@code check} sees the topic after
   * every client is closed and before it is deleted.
   */
  public static Result run(
      BenchmarkDriver driver, int messages, long timeoutSeconds, TopicCheck check)
      throws Exception {
    return run(driver, Plan.of(messages, timeoutSeconds).checking(check));
  }

  /** Runs {@code plan} through a new topic of {@link #PARTITIONS} partitions. */
  public static Result run(BenchmarkDriver driver, Plan plan) throws Exception {
    int messages = plan.messages();
    long timeoutSeconds = plan.timeoutSeconds();
    String topic = newTopicName(driver.topicNamePrefix() + "-test");
    driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
    Subscription shared =
        new Subscription(
            "subscription 'shared' (" + plan.sharedMembers() + " consumer(s))", messages);
    Subscription single = new Subscription("subscription 'single'", messages);
    AtomicInteger memberA = new AtomicInteger();
    AtomicInteger memberB = new AtomicInteger();
    List<BenchmarkConsumer> consumers = new ArrayList<>();
    BenchmarkProducer producer = null;
    try {
      consumers.add(
          driver.createConsumer(topic, "shared", shared.member(memberA)).get(30, TimeUnit.SECONDS));
      if (plan.sharedMembers() > 1) {
        consumers.add(
            driver
                .createConsumer(topic, "shared", shared.member(memberB))
                .get(30, TimeUnit.SECONDS));
      }
      consumers.add(driver.createConsumer(topic, "single", single).get(30, TimeUnit.SECONDS));
      producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);
      plan.beforeSending().run(topic);

      Acknowledgements acknowledgements = new Acknowledgements(messages);
      // One array reused for every send, as the framework does: the driver must copy it.
      byte[] payload = new byte[256];
      ByteBuffer buffer = ByteBuffer.wrap(payload);
      for (int i = 0; i < messages; i++) {
        int key = i % KEYS;
        buffer.putInt(0, i).putInt(4, key);
        producer.send("key-" + key, payload, i, acknowledgements);
      }
      assertEquals(
          List.of(),
          acknowledgements.await(Duration.ofSeconds(timeoutSeconds)),
          "each send completes exactly once, acknowledged");

      for (Subscription s : List.of(shared, single)) {
        assertTrue(
            s.all.await(timeoutSeconds, TimeUnit.SECONDS),
            s.name + ": received " + s.distinct.get() + " of " + messages);
      }
      shared.assertExactlyOnce();
      single.assertExactlyOnce();
      // Each completion names the partition the message went to, as the consumer numbers it: what
      // unavailability per partition rests on.
      for (int i = 0; i < messages; i++) {
        assertEquals(
            single.arrivedOn.get(i),
            acknowledgements.partitionOf(i),
            "partition named for message " + i + " sent");
      }
      // Closing first lets consumers finish acknowledging what they received.
      closeAll(producer, consumers);
      producer = null;
      plan.check().check(topic);
      return new Result(topic, shared, single, new int[] {memberA.get(), memberB.get()});
    } finally {
      closeAll(producer, consumers);
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  private static void closeAll(BenchmarkProducer producer, List<BenchmarkConsumer> consumers)
      throws Exception {
    if (producer != null) {
      producer.close();
    }
    for (BenchmarkConsumer c : consumers) {
      c.close();
    }
    consumers.clear();
  }

  private static void assertTrue(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }

  private static void assertEquals(Object expected, Object actual, String message) {
    if (!Objects.equals(expected, actual)) {
      throw new AssertionError(message + ": expected " + expected + " but was " + actual);
    }
  }

  private DriverRoundTrip() {}
}
