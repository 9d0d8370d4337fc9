package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.driver.DriverConfigException;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Against the 3-node cluster of {@code deploy/local/redis.sh start --nodes 3}: servers on
 * PLUMB_REDIS_PORT (6379) and the next two ports, a Sentinel on each node; the primary is whichever
 * the Sentinels name (a fault test may have moved it). Nothing here stops a node, so the cluster is
 * the same for every test and after them.
 */
class RedisReplicatedClusterTest {

  private static final SmokeRun RUN = SmokeRun.standard();
  private static final int BASE_PORT =
      Integer.parseInt(System.getenv().getOrDefault("PLUMB_REDIS_PORT", "6379"));

  /** The primary's port, as the Sentinels name it when the class starts, and the replicas'. */
  private static int PORT;

  private static List<Integer> REPLICA_PORTS;

  /** Independent connections to the primary and each replica, not through the driver. */
  private static Jedis primary;

  private static List<Jedis> replicas;

  @TempDir Path scratch;

  @BeforeAll
  static void clusterIsUp() {
    try (Jedis sentinel = new Jedis("127.0.0.1", LocalSentinels.PORT)) {
      PORT = Integer.parseInt(sentinel.sentinelGetMasterAddrByName("plumb").get(1));
    } catch (redis.clients.jedis.exceptions.JedisConnectionException e) {
      fail(
          "no Sentinel on 127.0.0.1:"
              + LocalSentinels.PORT
              + ": deploy/local/redis.sh start --nodes 3");
    }
    REPLICA_PORTS =
        java.util.stream.IntStream.range(BASE_PORT, BASE_PORT + 3)
            .filter(p -> p != PORT)
            .boxed()
            .toList();
    primary = new Jedis("127.0.0.1", PORT);
    try {
      String info = primary.info("replication");
      if (!info.contains("role:master") || !info.contains("connected_slaves:2")) {
        fail(
            "127.0.0.1:"
                + PORT
                + " is not a primary with 2 replicas: start the cluster with"
                + " deploy/local/redis.sh start --nodes 3\n"
                + info);
      }
    } catch (redis.clients.jedis.exceptions.JedisConnectionException e) {
      fail("no Redis on 127.0.0.1:" + PORT + ": deploy/local/redis.sh start --nodes 3", e);
    }
    replicas = REPLICA_PORTS.stream().map(p -> new Jedis("127.0.0.1", p)).toList();
  }

  @AfterAll
  static void closeConnections() {
    if (primary != null) {
      primary.close();
    }
    if (replicas != null) {
      replicas.forEach(Jedis::close);
    }
  }

  @Test
  void replicatedFileDeliversEverythingAndRecordsThreeCopies() {
    RunReport report =
        RUN.run(Path.of("redis-replicated.yaml"), LocalSentinels.overrides(), scratch);
    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("3", facts.get("replicas"), facts.toString());
    assertEquals("3", facts.get("nodes"), facts.toString());
    assertEquals(
        Set.of(
            "127.0.0.1:" + BASE_PORT,
            "127.0.0.1:" + (BASE_PORT + 1),
            "127.0.0.1:" + (BASE_PORT + 2)),
        Set.of(facts.get("replicaNodes").split(",")),
        facts.toString());
    assertEquals("1", facts.get("redis.waitReplicas"), facts.toString());
    String version = primary.info("server").replaceAll("(?s).*redis_version:(\\S+).*", "$1");
    assertEquals(version, facts.get("brokerVersion"), facts.toString());
  }

  @Test
  void everyConfirmedSendIsOnBothReplicasWhenItCompletes() throws Exception {
    String topic = PipelinedProducerTest.topic();
    int messages = 2_000;
    try {
      PipelinedProducerTest.Completions done =
          PipelinedProducerTest.Completions.sendAll(
              PipelinedProducerTest.producer(
                  PORT, topic, "cluster-wait-2", 3, 16, 256, new ReplicaWait(2, 5_000)),
              messages,
              i -> "key-" + i,
              i -> new byte[100]);
      done.assertEachOnce();
      assertEquals(Map.of(), done.failures);
      // Read at once, no waiting: WAIT 2 confirmed each batch on both replicas before it completed.
      for (Jedis replica : replicas) {
        long stored = 0;
        for (int p = 0; p < 3; p++) {
          stored += replica.xlen(topic + "-" + p);
        }
        assertEquals(messages, stored, "entries on the replica at " + replica.getConnection());
      }
    } finally {
      PipelinedProducerTest.delete(primary, topic, 3);
    }
  }

  @Test
  void aWaitForMoreReplicasThanTheClusterHasFailsEverySend() throws Exception {
    String topic = PipelinedProducerTest.topic();
    int messages = 64;
    PipelinedProducerTest.Completions done;
    try {
      done =
          PipelinedProducerTest.Completions.sendAll(
              PipelinedProducerTest.producer(
                  PORT, topic, "cluster-wait-3", 1, 16, 32, new ReplicaWait(3, 500)),
              messages,
              i -> null,
              i -> new byte[10]);
    } finally {
      primary.del(topic + "-0");
    }
    done.assertEachFailedOnceWith(
        ReplicaWait.ReplicationShortfall.class,
        "WAIT 3 500 answered 2: fewer replicas than asked confirmed the batch within 500 ms");
  }

  @Test
  void aFileAskingMoreReplicasThanOnlineIsRefusedWithOneLine() throws Exception {
    Path file = Path.of("redis-replicated.yaml");
    Map<String, String> asks3 = new java.util.HashMap<>(LocalSentinels.overrides());
    asks3.put("waitReplicas", "3");
    DriverConfigException e =
        assertThrows(
            DriverConfigException.class,
            () -> new RedisBenchmarkDriver().initialize(DriverSettingsReader.config(file, asks3)));
    assertEquals(
        "--driver-set waitReplicas=3: asks WAIT for 3 replicas but the Redis server at 127.0.0.1:"
            + PORT
            + " (primary of 'plumb' per Sentinel) has 3 nodes (a primary with 2 online replicas; WAIT can count 2 at most)",
        e.getMessage());
  }

  @Test
  void redisHostOrPortBesideSentinelsIsRefusedWithOneLine() throws Exception {
    Path file = Path.of("redis-replicated.yaml");
    DriverConfigException e =
        assertThrows(
            DriverConfigException.class,
            () ->
                new RedisBenchmarkDriver()
                    .initialize(DriverSettingsReader.config(file, Map.of("redisPort", "6380"))));
    assertEquals(
        "--driver-set redisPort=6380: not used with 'sentinels', which name the primary: remove one"
            + " of the two",
        e.getMessage());
  }

  @Test
  void aWaitFilePointedAtAReplicaIsRefusedWithOneLine() throws Exception {
    int replica = REPLICA_PORTS.get(0);
    Path file = Path.of("redis-replicated.yaml");
    int line = Files.readAllLines(file).indexOf("waitReplicas: 1") + 1;
    DriverConfigException e =
        assertThrows(
            DriverConfigException.class,
            () ->
                new RedisBenchmarkDriver()
                    .initialize(
                        DriverSettingsReader.config(
                            file, Map.of("sentinels", "", "redisPort", String.valueOf(replica)))));
    assertEquals(
        "redis-replicated.yaml:"
            + line
            + ": field 'waitReplicas': asks WAIT for 1 replica but the Redis server at 127.0.0.1:"
            + replica
            + " is itself a replica (of 127.0.0.1:"
            + PORT
            + "), where WAIT is refused: point redisPort at the primary (deploy/local/redis.sh"
            + " primary names it)",
        e.getMessage());
  }
}
