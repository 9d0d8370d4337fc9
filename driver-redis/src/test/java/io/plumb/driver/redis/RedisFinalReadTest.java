package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.testkit.KeyedMessages;
import io.plumb.testkit.MixedHeaderMessages;
import io.plumb.testkit.NoFinalRead;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The final read against the real local Redis server ({@code deploy/local/redis.sh start}): stream
 * entries nobody consumed are all read back, exactly as many as XLEN reports per stream, on the
 * partition index of their stream; Pub/Sub says why it cannot be read.
 */
class RedisFinalReadTest {
  private static final int PARTITIONS = 4;
  // Over 1,000 a stream: the read pages through XRANGE more than once.
  private static final int MESSAGES = 6_000;
  private static final int KEYS = 40;

  // JUnit closes it after the last test; it stays null when no broker answered.
  @AutoClose private static Jedis admin;

  @BeforeAll
  static void serverIsUp() {
    LocalRedis.assertUp();
    admin = LocalRedis.admin();
  }

  @Test
  void streamsNobodyConsumedAreReadBackToWhatXlenReports() throws Exception {
    String topic = "plumb-test-final-read-" + System.nanoTime();
    try (RedisBenchmarkDriver driver = LocalRedis.open("redis.yaml")) {
      assertEquals(Optional.empty(), driver.whyNoFinalRead());
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      KeyedMessages messages = new KeyedMessages(MESSAGES, KEYS);
      try (BenchmarkProducer producer = driver.createProducer(topic).get()) {
        assertEquals(List.of(), messages.sendAll(producer, Duration.ofSeconds(30)));
      }

      KeyedMessages.Reading read = messages.reading();
      String end = driver.readToEnd(topic, "nobody", read, Duration.ofSeconds(30));

      long stored = 0;
      for (int p = 0; p < PARTITIONS; p++) {
        long length = admin.xlen(topic + "-" + p);
        stored += length;
        assertEquals(length, read.onPartition(p), "stream " + p + " read to its end");
      }
      assertEquals(MESSAGES, stored, "the server holds every message once");
      assertEquals(stored, read.total(), "read exactly the sum of XLEN");
      assertEquals(List.of(), read.problems(), "each message read once, each key on one stream");
      assertTrue(end.contains(String.format("= %,d, last IDs ", MESSAGES)), end);
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Entries whose header travelled as the field 'h' (every other message, with a 1-byte body) are
   * read back with the header apart, the others as plain payloads, each exactly once; over 1,000 a
   * stream, so the read pages through both kinds.
   */
  @Test
  void entriesWithTheHeaderFieldAreReadBackWithTheirHeaderApart() throws Exception {
    String topic = "plumb-test-final-read-header-" + System.nanoTime();
    try (RedisBenchmarkDriver driver = LocalRedis.open("redis.yaml")) {
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      assertEquals(
          List.of(),
          new MixedHeaderMessages(MESSAGES)
              .sendThenReadToEnd(driver, topic, "nobody", Duration.ofSeconds(30)));
    }
  }

  @Test
  void pubSubSaysItKeepsNothingToRead() throws Exception {
    try (RedisBenchmarkDriver driver = LocalRedis.open("redis-pubsub.yaml")) {
      NoFinalRead.assertRefused(driver, "Redis Pub/Sub keeps no messages");
    }
  }
}
