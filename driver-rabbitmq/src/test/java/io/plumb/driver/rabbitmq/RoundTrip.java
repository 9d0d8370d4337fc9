package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Drives a driver through the API the framework uses: one topic, two consumers in one subscription
 * plus a second subscription, keyed messages with distinct payloads; then checks that every send
 * completed without failure and each subscription received every message exactly once, keys staying
 * on one partition.
 */
final class RoundTrip {
  static final int PARTITIONS = 3;
  static final int MESSAGES = 2_000;
  static final int KEYS = 50;
  static final long TIMEOUT_SECONDS = 30;

  /** Records what one subscription received. */
  static final class Subscription {
    final String name;
    final Map<String, Integer> counts = new ConcurrentHashMap<>();
    final Map<String, Integer> partitionOfKey = new ConcurrentHashMap<>();
    final Map<String, Integer> arrivedOn = new ConcurrentHashMap<>();
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicInteger misplacedKeys = new AtomicInteger();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final CountDownLatch allReceived = new CountDownLatch(MESSAGES);

    Subscription(String name) {
      this.name = name;
    }

    /** A listener for one member; {@code perMember} counts what that member received. */
    MessageListener member(AtomicInteger perMember) {
      return new MessageListener() {
        @Override
        public void received(byte[] payload, int partition) {
          String text = new String(payload, StandardCharsets.UTF_8);
          perMember.incrementAndGet();
          String key = text.substring(0, text.indexOf('|'));
          arrivedOn.put(text, partition);
          Integer before = partitionOfKey.putIfAbsent(key, partition);
          if (partition < 0 || partition >= PARTITIONS || (before != null && before != partition)) {
            misplacedKeys.incrementAndGet();
          }
          if (counts.merge(text, 1, Integer::sum) == 1) {
            allReceived.countDown();
          } else {
            duplicates.incrementAndGet();
          }
        }

        @Override
        public void failed(Throwable error) {
          failure.compareAndSet(null, error);
        }
      };
    }
  }

  static String topicName(String prefix) {
    return prefix + "-" + Long.toHexString(System.nanoTime());
  }

  /** Runs the exchange on {@code topic} (already created with {@link #PARTITIONS}). */
  static void run(BenchmarkDriver driver, String topic) throws Exception {
    Subscription shared = new Subscription("shared");
    Subscription other = new Subscription("other");
    AtomicInteger first = new AtomicInteger();
    AtomicInteger second = new AtomicInteger();
    AtomicInteger third = new AtomicInteger();
    List<BenchmarkConsumer> consumers = new ArrayList<>();
    consumers.add(
        driver.createConsumer(topic, "shared", shared.member(first)).get(30, TimeUnit.SECONDS));
    consumers.add(
        driver.createConsumer(topic, "shared", shared.member(second)).get(30, TimeUnit.SECONDS));
    consumers.add(
        driver.createConsumer(topic, "other", other.member(third)).get(30, TimeUnit.SECONDS));
    BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);

    CountDownLatch sendsCompleted = new CountDownLatch(MESSAGES);
    AtomicInteger sendFailures = new AtomicInteger();
    AtomicReference<Throwable> firstSendFailure = new AtomicReference<>();
    Map<Long, Boolean> completedTokens = new ConcurrentHashMap<>();
    AtomicInteger doubleCompletions = new AtomicInteger();
    int[] sentTo = new int[MESSAGES];
    SendListener listener =
        new SendListener() {
          @Override
          public void sendCompleted(long token, Throwable failure) {
            sendCompleted(token, SendListener.UNKNOWN_PARTITION, failure);
          }

          @Override
          public void sendCompleted(long token, int partition, Throwable failure) {
            sentTo[(int) token] = partition;
            if (completedTokens.put(token, Boolean.TRUE) != null) {
              doubleCompletions.incrementAndGet();
            }
            if (failure != null) {
              sendFailures.incrementAndGet();
              firstSendFailure.compareAndSet(null, failure);
            }
            sendsCompleted.countDown();
          }
        };
    byte[] buffer = new byte[64];
    for (int i = 0; i < MESSAGES; i++) {
      // The framework reuses its payload array after send() returns; so does this test, to catch
      // a driver that keeps the reference.
      byte[] text = ("key-" + (i % KEYS) + "|message-" + i).getBytes(StandardCharsets.UTF_8);
      java.util.Arrays.fill(buffer, (byte) 0);
      System.arraycopy(text, 0, buffer, 0, text.length);
      byte[] payload = java.util.Arrays.copyOf(buffer, text.length);
      producer.send("key-" + (i % KEYS), payload, i, listener);
      java.util.Arrays.fill(payload, (byte) 'x');
    }
    assertTrue(
        sendsCompleted.await(TIMEOUT_SECONDS, TimeUnit.SECONDS),
        "sends completed: " + (MESSAGES - sendsCompleted.getCount()) + " of " + MESSAGES);
    assertEquals(0, sendFailures.get(), "failed sends, first: " + firstSendFailure.get());
    assertEquals(MESSAGES, completedTokens.size(), "distinct tokens completed");
    assertEquals(0, doubleCompletions.get(), "sends completed twice");

    for (Subscription s : List.of(shared, other)) {
      assertTrue(
          s.allReceived.await(TIMEOUT_SECONDS, TimeUnit.SECONDS),
          s.name + " received " + s.counts.size() + " of " + MESSAGES + " distinct messages");
    }
    producer.close();
    for (BenchmarkConsumer c : consumers) {
      c.close();
    }
    for (Subscription s : List.of(shared, other)) {
      assertEquals(MESSAGES, s.counts.size(), s.name + ": distinct messages");
      for (int i = 0; i < MESSAGES; i++) {
        String expected = "key-" + (i % KEYS) + "|message-" + i;
        assertEquals(1, s.counts.getOrDefault(expected, 0), s.name + ": " + expected);
      }
      assertEquals(0, s.duplicates.get(), s.name + ": duplicates");
      assertEquals(0, s.misplacedKeys.get(), s.name + ": keys seen on two partitions");
      assertEquals(null, s.failure.get(), s.name + ": consumer failure");
      // Each completion named the queue (stream) its message went to, as consumers number them.
      for (int i = 0; i < MESSAGES; i++) {
        String text = "key-" + (i % KEYS) + "|message-" + i;
        assertEquals(s.arrivedOn.get(text), sentTo[i], s.name + ": partition named for " + text);
      }
    }
    assertTrue(
        first.get() > 0 && second.get() > 0,
        "both members of the shared subscription received messages: "
            + first.get()
            + " and "
            + second.get());
    assertEquals(MESSAGES, first.get() + second.get(), "shared subscription total");
  }

  private RoundTrip() {}
}
