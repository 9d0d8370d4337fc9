package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import io.plumb.worker.DriverSettingsReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The final read against the real local Redis server ({@code deploy/local/redis.sh start}): stream
 * entries nobody consumed are all read back, exactly as many as XLEN reports per stream, on the
 * partition index of their stream; Pub/Sub says why it cannot be read.
 */
class RedisFinalReadTest {
  private static final String PORT = System.getenv().getOrDefault("PLUMB_REDIS_PORT", "6379");
  private static final int PARTITIONS = 4;
  // Over 1,000 a stream: the read pages through XRANGE more than once.
  private static final int MESSAGES = 6_000;
  private static final int KEYS = 40;

  private static Jedis admin;

  @BeforeAll
  static void serverIsUp() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(PORT)), 2_000);
    } catch (java.io.IOException e) {
      fail("no Redis server on 127.0.0.1:" + PORT + ": start it with deploy/local/redis.sh start");
    }
    admin = new Jedis("127.0.0.1", Integer.parseInt(PORT));
  }

  @AfterAll
  static void closeAdmin() {
    if (admin != null) {
      admin.close();
    }
  }

  private static RedisBenchmarkDriver open(String file) throws Exception {
    RedisBenchmarkDriver driver = new RedisBenchmarkDriver(Map.of());
    driver.initialize(
        DriverSettingsReader.config(
            Path.of(file), PORT.equals("6379") ? Map.of() : Map.of("redisPort", PORT)));
    return driver;
  }

  @Test
  void streamsNobodyConsumedAreReadBackToWhatXlenReports() throws Exception {
    String topic = "plumb-test-final-read-" + System.nanoTime();
    try (RedisBenchmarkDriver driver = open("redis.yaml")) {
      assertEquals(Optional.empty(), driver.whyNoFinalRead());
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      CountDownLatch completed = new CountDownLatch(MESSAGES);
      AtomicReference<Throwable> sendFailure = new AtomicReference<>();
      SendListener sends =
          (token, failure) -> {
            if (failure != null) {
              sendFailure.compareAndSet(null, failure);
            }
            completed.countDown();
          };
      try (BenchmarkProducer producer = driver.createProducer(topic).get()) {
        byte[] payload = new byte[64];
        for (int i = 0; i < MESSAGES; i++) {
          ByteBuffer.wrap(payload).putInt(0, i);
          producer.send("key-" + (i % KEYS), payload, i, sends);
        }
        assertTrue(completed.await(30, TimeUnit.SECONDS), "every send completed");
      }
      assertNull(sendFailure.get(), "send failure");

      Read read = new Read();
      String end = driver.readToEnd(topic, "nobody", read, Duration.ofSeconds(30));

      long stored = 0;
      for (int p = 0; p < PARTITIONS; p++) {
        long length = admin.xlen(topic + "-" + p);
        stored += length;
        assertEquals(
            length,
            read.perPartition.getOrDefault(p, new AtomicInteger()).longValue(),
            "stream " + p + " read to its end");
      }
      assertEquals(MESSAGES, stored, "the server holds every message once");
      assertEquals(stored, read.total.get(), "read exactly the sum of XLEN");
      for (int i = 0; i < MESSAGES; i++) {
        assertEquals(1, read.countOf(i), "message " + i + " read once");
      }
      assertEquals(0, read.keysOnTwoPartitions.get(), "each key's messages on one stream");
      assertEquals(0, read.withHeader.get(), "plain entries read with a header");
      assertTrue(end.contains(String.format("= %,d, last IDs ", MESSAGES)), end);
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Entries whose header travelled as the field 'h' (every other message, with a 1-byte body) are
   * read back with the header apart, the others as plain payloads, each exactly once.
   */
  @Test
  void entriesWithTheHeaderFieldAreReadBackWithTheirHeaderApart() throws Exception {
    String topic = "plumb-test-final-read-header-" + System.nanoTime();
    try (RedisBenchmarkDriver driver = open("redis.yaml")) {
      driver.createTopic(topic, PARTITIONS).get(30, TimeUnit.SECONDS);
      CountDownLatch completed = new CountDownLatch(MESSAGES);
      AtomicReference<Throwable> sendFailure = new AtomicReference<>();
      SendListener sends =
          (token, failure) -> {
            if (failure != null) {
              sendFailure.compareAndSet(null, failure);
            }
            completed.countDown();
          };
      try (BenchmarkProducer producer = driver.createProducer(topic).get()) {
        byte[] header = new byte[26];
        byte[] body = new byte[1];
        byte[] payload = new byte[64];
        for (int i = 0; i < MESSAGES; i++) {
          if (i % 2 == 0) {
            ByteBuffer.wrap(header).putInt(0, i);
            body[0] = (byte) i;
            producer.send("key-" + (i % KEYS), header, body, i, sends);
          } else {
            ByteBuffer.wrap(payload).putInt(0, i);
            producer.send("key-" + (i % KEYS), payload, i, sends);
          }
        }
        assertTrue(completed.await(30, TimeUnit.SECONDS), "every send completed");
      }
      assertNull(sendFailure.get(), "send failure");

      Read read = new Read();
      driver.readToEnd(topic, "nobody", read, Duration.ofSeconds(30));

      assertEquals(MESSAGES, read.total.get(), "entries read");
      for (int i = 0; i < MESSAGES; i++) {
        assertEquals(1, read.countOf(i), "message " + i + " read once");
      }
      assertEquals(MESSAGES / 2, read.withHeader.get(), "entries read with their header apart");
      assertEquals(0, read.wrongHeaderEntries.get(), "odd (plain) or wrong-bodied header entries");
      assertEquals(0, read.keysOnTwoPartitions.get(), "each key's messages on one stream");
      driver.deleteTopics(List.of(topic)).get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void pubSubSaysItKeepsNothingToRead() throws Exception {
    try (RedisBenchmarkDriver driver = open("redis-pubsub.yaml")) {
      assertEquals(Optional.of("Redis Pub/Sub keeps no messages"), driver.whyNoFinalRead());
      assertThrows(
          IllegalStateException.class,
          () -> driver.readToEnd("any", "any", new Read(), Duration.ofSeconds(1)));
    }
  }

  /** Counts each message index read, per stream, and checks each key stays on one stream. */
  private static final class Read implements MessageListener {
    final AtomicInteger total = new AtomicInteger();
    final Map<Integer, AtomicInteger> perPartition = new ConcurrentHashMap<>();
    final Map<Integer, AtomicInteger> perIndex = new ConcurrentHashMap<>();
    final Map<Integer, Integer> partitionOfKey = new ConcurrentHashMap<>();
    final AtomicInteger keysOnTwoPartitions = new AtomicInteger();

    // Entries that carried the header as a field, and those of them that were not an even
    // message with its 1-byte body.
    final AtomicInteger withHeader = new AtomicInteger();
    final AtomicInteger wrongHeaderEntries = new AtomicInteger();

    @Override
    public void received(byte[] payload, int partition) {
      count(ByteBuffer.wrap(payload).getInt(0), partition);
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      int index = ByteBuffer.wrap(header).getInt(0);
      withHeader.incrementAndGet();
      if (index % 2 != 0 || payload.length != 1 || payload[0] != (byte) index) {
        wrongHeaderEntries.incrementAndGet();
      }
      count(index, partition);
    }

    private void count(int index, int partition) {
      total.incrementAndGet();
      perPartition.computeIfAbsent(partition, p -> new AtomicInteger()).incrementAndGet();
      perIndex.computeIfAbsent(index, i -> new AtomicInteger()).incrementAndGet();
      Integer previous = partitionOfKey.putIfAbsent(index % KEYS, partition);
      if (previous != null && previous != partition) {
        keysOnTwoPartitions.incrementAndGet();
      }
    }

    int countOf(int index) {
      AtomicInteger count = perIndex.get(index);
      return count == null ? 0 : count.get();
    }

    @Override
    public void failed(Throwable error) {
      fail(error);
    }
  }
}
