package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.input.BadInputException;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * Each shipped driver file, run through the whole engine against the local broker: keyed load over
 * 3 partitions, two subscriptions of two consumers, every message acknowledged and received exactly
 * once by each subscription, and the result's broker facts saying what the server reports: one
 * node, one copy. The replicated file is refused on this one server before anything is changed.
 */
class RedisBenchmarkRunTest {
  private static final SmokeRun RUN = SmokeRun.standard();
  private static final String PORT = LocalRedis.PORT;

  @TempDir Path scratch;

  /** The Jedis-pipelining producer, kept to compare with the RESP one, delivers the same way. */
  @ParameterizedTest
  @ValueSource(strings = {"redis.yaml", "redis-pubsub.yaml"})
  void jedisPipeliningProducerDeliversEveryMessageThroughTheEngine(String file) {
    Map<String, String> jedis = new java.util.HashMap<>(LocalRedis.overrides());
    jedis.put("producer", "jedis");
    RunReport report = RUN.run(Path.of(file), jedis, scratch);
    assertEquals(List.of(), RUN.deliveryProblems(report));
    assertEquals(
        "jedis", report.brokerFacts().get("redis.producer"), report.brokerFacts().toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "redis.yaml",
        "redis-aof-everysec.yaml",
        "redis-aof-always.yaml",
        "redis-pubsub.yaml"
      })
  void shippedFileDeliversEveryMessageThroughTheEngine(String file) {
    RunReport report = RUN.run(Path.of(file), LocalRedis.overrides(), scratch);
    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("1", facts.get("replicas"), facts.toString());
    assertEquals("1", facts.get("nodes"), facts.toString());
    assertEquals("127.0.0.1:" + PORT, facts.get("replicaNodes"), facts.toString());
    try (Jedis admin = new Jedis("127.0.0.1", Integer.parseInt(PORT))) {
      String info = admin.info("server");
      String version = info.replaceAll("(?s).*redis_version:(\\S+).*", "$1");
      assertEquals(version, facts.get("brokerVersion"), facts.toString());
    }
  }

  @Test
  void replicatedFileIsRefusedOnOneServerWithOneLineBeforeAnythingChanges() throws Exception {
    Path file = Path.of("redis-replicated.yaml");
    int line = Files.readAllLines(file).indexOf("waitReplicas: 1") + 1;
    try (Jedis admin = new Jedis("127.0.0.1", Integer.parseInt(PORT))) {
      // The file asks for appendonly no: a refusal before CONFIG SET leaves "yes".
      admin.configSet("appendonly", "yes");
      long keys = admin.dbSize();
      try {
        // The file finds the primary through Sentinels; pointed at the one server instead:
        Map<String, String> oneServer = Map.of("sentinels", "", "redisPort", PORT);
        BadInputException e =
            assertThrows(BadInputException.class, () -> RUN.run(file, oneServer, scratch));
        assertEquals(
            "redis-replicated.yaml:"
                + line
                + ": field 'waitReplicas': asks WAIT for 1 replica but the Redis server at"
                + " 127.0.0.1:"
                + PORT
                + " has 1 node (a primary with 0 online replicas; start 3:"
                + " deploy/local/redis.sh start --nodes 3)",
            e.getMessage());
        assertEquals("yes", admin.configGet("appendonly").get("appendonly"));
        assertEquals(keys, admin.dbSize(), "keys created by a refused run");
      } finally {
        admin.configSet("appendonly", "no");
      }
    }
  }
}
