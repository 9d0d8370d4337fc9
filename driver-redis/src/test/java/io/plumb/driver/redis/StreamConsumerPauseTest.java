package io.plumb.driver.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAddParams;

/**
 * A stream consumer paused for a backlog workload (deploy/local/redis.sh start): it stops reading,
 * entries written meanwhile stay undelivered on the server, and once resumed it delivers each of
 * them exactly once. Judged by the server's own view of the consumer group, not by timing alone.
 */
class StreamConsumerPauseTest {
  private static final int PORT =
      Integer.parseInt(System.getenv().getOrDefault("PLUMB_REDIS_PORT", "6379"));
  private static final int ENTRIES = 1_000;

  /** A reading consumer issues a blocking read every readBlockMillis (100 ms in redis.yaml). */
  private static final long PARKED_MILLIS = 1_000;

  @Test
  void pausedConsumerLeavesEntriesOnTheServerAndDeliversEachOnceWhenResumed() throws Exception {
    String topic = "pause-" + UUID.randomUUID().toString().substring(0, 8);
    String stream = new String(RedisKeys.partitions(topic, 1)[0], UTF_8);
    Set<String> received = ConcurrentHashMap.newKeySet();
    AtomicInteger deliveries = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    MessageListener listener =
        new MessageListener() {
          @Override
          public void received(byte[] payload, int partition) {
            received.add(new String(payload, UTF_8));
            deliveries.incrementAndGet();
          }

          @Override
          public void failed(Throwable error) {
            errors.incrementAndGet();
          }
        };
    Map<String, String> overrides = PORT == 6379 ? Map.of() : Map.of("redisPort", "" + PORT);
    try (RedisBenchmarkDriver driver = new RedisBenchmarkDriver();
        Jedis admin = new Jedis("127.0.0.1", PORT)) {
      driver.initialize(DriverSettingsReader.config(Path.of("redis.yaml"), overrides));
      driver.createTopic(topic, 1).join();
      BenchmarkConsumer consumer = driver.createConsumer(topic, "sub", listener).join();
      try {
        consumer.pause();
        // Parked: the server has seen no command from the member for far longer than a read.
        await(() -> idleMillis(admin, stream) >= PARKED_MILLIS, "the paused consumer still reads");
        long writing = System.nanoTime();
        for (int i = 0; i < ENTRIES; i++) {
          admin.xadd(stream, XAddParams.xAddParams(), Map.of("p", "m" + i));
        }
        // Ten reads' worth of time to watch in: a member that read in it would show a shorter idle.
        Thread.sleep(PARKED_MILLIS);
        long watched = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - writing);
        assertTrue(idleMillis(admin, stream) >= watched, "the paused consumer read again");
        assertEquals(0, deliveries.get(), "delivered while paused");
        assertEquals(new StreamEntryID(), lastDelivered(admin, stream));

        consumer.resume();
        await(() -> deliveries.get() >= ENTRIES, "not every entry arrived after resume");
        await(() -> admin.xpending(stream, "sub").getTotal() == 0, "entries left unacknowledged");
      } finally {
        consumer.close();
        driver.deleteTopics(List.of(topic)).join();
      }
      assertEquals(ENTRIES, deliveries.get(), "delivered more than once");
      assertEquals(ENTRIES, received.size());
      assertEquals(0, errors.get());
    }
  }

  /** Milliseconds since the consumer group's only member last sent a command. */
  private static long idleMillis(Jedis admin, String stream) {
    List<redis.clients.jedis.resps.StreamConsumersInfo> members =
        admin.xinfoConsumers(stream, "sub");
    // createConsumer joins the group, so the member is there even if it was paused before a read.
    assertEquals(1, members.size(), "members of the group");
    return members.get(0).getIdle();
  }

  private static StreamEntryID lastDelivered(Jedis admin, String stream) {
    return admin.xinfoGroups(stream).get(0).getLastDeliveredId();
  }

  /** Polls {@code condition} every 50 ms for up to 30 s; fails with {@code why} otherwise. */
  private static void await(BooleanSupplier condition, String why) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail(why + " after 30 s");
      }
      Thread.sleep(50);
    }
    assertTrue(condition.getAsBoolean());
  }
}
