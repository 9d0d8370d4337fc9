package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.MessageListener;
import io.plumb.input.BadInputException;
import io.plumb.message.HeaderPlacement;
import io.plumb.message.MessageHeader;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Messages smaller than Plumb's header on the local server ({@code deploy/local/redis.sh start}):
 * in streams mode the header travels as the entry field 'h', the payload is the body alone, and
 * every message arrives once with its end-to-end latency; Pub/Sub, whose messages have no fields,
 * is refused in one line before any load.
 */
class RedisMetadataHeaderTest {
  private static final String PORT = System.getenv().getOrDefault("PLUMB_REDIS_PORT", "6379");

  @TempDir Path scratch;

  @BeforeAll
  static void serverIsUp() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(PORT)), 2_000);
    } catch (java.io.IOException e) {
      fail("no Redis server on 127.0.0.1:" + PORT + ": start it with deploy/local/redis.sh start");
    }
  }

  private static Map<String, String> overrides() {
    return PORT.equals("6379") ? Map.of() : Map.of("redisPort", PORT);
  }

  /** Both producers: the hand-written RESP one (the default) and Jedis's pipelining. */
  @ParameterizedTest
  @ValueSource(strings = {"resp", "jedis"})
  void oneByteMessagesCarryTheHeaderInAStreamEntryField(String producer) {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 500, Duration.ofSeconds(2), 1);
    Map<String, String> settings = new HashMap<>(overrides());
    settings.put("producer", producer);
    RunReport report = run.run(Path.of("redis.yaml"), settings, scratch);
    assertEquals(List.of(), run.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals(producer, facts.get("redis.producer"), facts.toString());
    assertEquals("metadata", facts.get(HeaderPlacement.FACT), facts.toString());
    // redis.yaml has maxLen 100000: a keyless XADD's argument count goes from *8 to *10.
    assertEquals(
        "Redis stream entry field 'h', +41 bytes per message on the wire beside each 1-byte"
            + " payload",
        facts.get(HeaderPlacement.DETAIL_FACT));
    // 2 s at 500 msg/s: about 1,000 end-to-end latencies, timed from the header's send time.
    assertTrue(
        report.measured().endToEndLatency().getTotalCount() > 500,
        report.measured().endToEndLatency().getTotalCount() + " end-to-end latencies");
  }

  @Test
  void pubSubRefusesMessagesSmallerThanTheHeaderInOneLine() throws Exception {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 500, Duration.ofSeconds(2), 1);
    BadInputException refused =
        assertThrows(
            BadInputException.class,
            () -> run.run(Path.of("redis-pubsub.yaml"), overrides(), scratch));
    assertEquals(
        scratch.resolve("smoke-redis-pubsub.yaml")
            + ": field 'messageSize': 1 bytes cannot hold Plumb's 26-byte header, and Redis"
            + " Pub/Sub (redis-pubsub.yaml) carries it in no per-message metadata; use a"
            + " messageSize of 26 or more",
        refused.getMessage());
    assertFalse(refused.getMessage().contains("\n"));

    // What the refusal rests on: streams files report the field, Pub/Sub files neither fact.
    try (RedisBenchmarkDriver pubSub = open("redis-pubsub.yaml");
        RedisBenchmarkDriver streams = open("redis.yaml")) {
      Map<String, String> none = pubSub.brokerFacts();
      assertNull(none.get(BrokerFactNames.HEADER_METADATA), none.toString());
      assertNull(none.get(BrokerFactNames.HEADER_METADATA_BYTES), none.toString());
      Map<String, String> some = streams.brokerFacts();
      assertEquals("Redis stream entry field 'h'", some.get(BrokerFactNames.HEADER_METADATA));
      assertEquals("41", some.get(BrokerFactNames.HEADER_METADATA_BYTES));
    }
  }

  /**
   * The replica reader ({@code consumeFrom: replica}) parses entries on its own path; XREAD reads
   * the one server here as it would a replica. Entries with and without the header field, mixed,
   * each reach the listener method that matches, with the bytes that were sent.
   */
  @Test
  void replicaReaderHandsEntriesOverWithTheirHeaderApart() throws Exception {
    String topic = PipelinedProducerTest.topic();
    int partitions = 2;
    int messages = 400;
    Received received = new Received(messages);
    PipelinedProducerTest.Completions completions = new PipelinedProducerTest.Completions(messages);
    try (PipelinedProducer producer =
        PipelinedProducerTest.producer(
            Integer.parseInt(PORT), topic, "plumb-test-header", partitions, 8, 64, null)) {
      byte[] header = new byte[MessageHeader.SIZE];
      byte[] body = new byte[1];
      byte[] plain = new byte[MessageHeader.SIZE + 1];
      for (int i = 0; i < messages; i++) {
        if (i % 2 == 0) {
          ByteBuffer.wrap(header).putInt(0, i);
          body[0] = (byte) i;
          producer.send("key-" + i, header, body, i, completions);
        } else {
          ByteBuffer.wrap(plain).putInt(0, i);
          producer.send("key-" + i, plain, i, completions);
        }
      }
      completions.awaitAll();
    }
    assertEquals(Map.of(), completions.failures);
    completions.assertEachOnce();

    HostAndPort server = new HostAndPort("127.0.0.1", Integer.parseInt(PORT));
    ReplicaSubscription reader =
        new ReplicaSubscription(
            () -> ConsumerConnection.open(server, DefaultJedisClientConfig.builder().build()),
            topic,
            partitions,
            100,
            100);
    try {
      reader.join(received);
      assertTrue(
          received.all.await(30, TimeUnit.SECONDS),
          received.byIndex.size() + " of " + messages + " received");
    } finally {
      reader.close();
      try (Jedis admin = new Jedis(server)) {
        for (int p = 0; p < partitions; p++) {
          admin.del(topic + "-" + p);
        }
      }
    }
    assertEquals(List.of(), received.problems);
    for (int i = 0; i < messages; i++) {
      assertEquals(i % 2 == 0 ? "header+body" : "plain", received.byIndex.get(i), "message " + i);
    }
  }

  private static RedisBenchmarkDriver open(String file) throws Exception {
    RedisBenchmarkDriver driver = new RedisBenchmarkDriver(Map.of());
    driver.initialize(DriverSettingsReader.config(Path.of(file), overrides()));
    return driver;
  }

  /**
   * Which method each message index arrived by. Called on the reader's thread, so what is wrong is
   * noted for the test thread to check rather than thrown there.
   */
  private static final class Received implements MessageListener {
    final Map<Integer, String> byIndex = new ConcurrentHashMap<>();
    final List<String> problems = new CopyOnWriteArrayList<>();
    final CountDownLatch all;

    Received(int messages) {
      all = new CountDownLatch(messages);
    }

    @Override
    public void received(byte[] payload, int partition) {
      int index = ByteBuffer.wrap(payload).getInt(0);
      if (payload.length != MessageHeader.SIZE + 1) {
        problems.add("message " + index + ": " + payload.length + "-byte payload");
      }
      record(index, "plain");
    }

    @Override
    public void received(byte[] header, byte[] payload, int partition) {
      int index = ByteBuffer.wrap(header).getInt(0);
      if (header.length != MessageHeader.SIZE
          || !Arrays.equals(new byte[] {(byte) index}, payload)) {
        problems.add(
            "message "
                + index
                + ": header "
                + header.length
                + " bytes, body "
                + Arrays.toString(payload));
      }
      record(index, "header+body");
    }

    private void record(int index, String how) {
      if (byIndex.put(index, how) != null) {
        problems.add("message " + index + " received twice");
      }
      all.countDown();
    }

    @Override
    public void failed(Throwable error) {
      problems.add(error.toString());
    }
  }
}
