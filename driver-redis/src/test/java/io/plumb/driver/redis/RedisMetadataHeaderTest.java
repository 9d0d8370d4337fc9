package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.input.BadInputException;
import io.plumb.result.RunReport;
import io.plumb.testkit.MixedHeaderMessages;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
  private static final String PORT = LocalRedis.PORT;

  @TempDir Path scratch;

  @BeforeAll
  static void serverIsUp() {
    LocalRedis.assertUp();
  }

  /** Both producers: the hand-written RESP one (the default) and Jedis's pipelining. */
  @ParameterizedTest
  @ValueSource(strings = {"resp", "jedis"})
  void oneByteMessagesCarryTheHeaderInAStreamEntryField(String producer) {
    SmokeRun run = SmokeRun.oneByte();
    Map<String, String> settings = new HashMap<>(LocalRedis.overrides());
    settings.put("producer", producer);
    RunReport report = run.run(Path.of("redis.yaml"), settings, scratch);
    // redis.yaml has maxLen 100000: a keyless XADD's argument count goes from *8 to *10.
    assertEquals(
        List.of(),
        run.metadataHeaderProblems(
            report,
            "Redis stream entry field 'h', +41 bytes per message on the wire beside each 1-byte"
                + " payload"));
    assertEquals(producer, report.brokerFacts().get("redis.producer"));
  }

  @Test
  void pubSubRefusesMessagesSmallerThanTheHeaderInOneLine() throws Exception {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 500, Duration.ofSeconds(2), 1);
    BadInputException refused =
        assertThrows(
            BadInputException.class,
            () -> run.run(Path.of("redis-pubsub.yaml"), LocalRedis.overrides(), scratch));
    assertEquals(
        scratch.resolve("smoke-redis-pubsub.yaml")
            + ": field 'messageSize': 1 bytes cannot hold Plumb's 26-byte header, and Redis"
            + " Pub/Sub (redis-pubsub.yaml) carries it in no per-message metadata; use a"
            + " messageSize of 26 or more",
        refused.getMessage());
    assertFalse(refused.getMessage().contains("\n"));

    // What the refusal rests on: streams files report the field, Pub/Sub files neither fact.
    try (RedisBenchmarkDriver pubSub = LocalRedis.open("redis-pubsub.yaml");
        RedisBenchmarkDriver streams = LocalRedis.open("redis.yaml")) {
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
    MixedHeaderMessages messages = new MixedHeaderMessages(400);
    try (PipelinedProducer producer =
        PipelinedProducerTest.producer(
            Integer.parseInt(PORT), topic, "plumb-test-header", partitions, 8, 64, null)) {
      assertEquals(List.of(), messages.sendAll(producer, Duration.ofSeconds(60)));
    }

    HostAndPort server = new HostAndPort("127.0.0.1", Integer.parseInt(PORT));
    ReplicaSubscription reader =
        new ReplicaSubscription(
            () -> ConsumerConnection.open(server, DefaultJedisClientConfig.builder().build()),
            topic,
            partitions,
            100,
            100);
    MixedHeaderMessages.Reading read = messages.reading();
    try {
      reader.join(read);
      assertTrue(read.awaitAll(Duration.ofSeconds(30)), String.join("; ", read.problems()));
    } finally {
      reader.close();
      try (Jedis admin = new Jedis(server)) {
        for (int p = 0; p < partitions; p++) {
          admin.del(topic + "-" + p);
        }
      }
    }
    assertEquals(List.of(), read.problems());
  }
}
