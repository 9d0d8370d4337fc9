package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.testkit.DriverFileRefusalContract;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.OmbDriverClass;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.StreamEntry;

/** Runs the driver against the real local Redis server (deploy/local/redis.sh start). */
class RedisDriverTest implements DriverFileRefusalContract {

  private static final int MESSAGES = 2_000;

  /** Every round trip here: {@link #MESSAGES} through a new topic, within 30 s. */
  private static final DriverRoundTrip.Plan ROUND_TRIP = DriverRoundTrip.Plan.of(MESSAGES, 30);

  private static final String PORT = LocalRedis.PORT;

  /** An independent connection reads the server's state back, not through the driver. */
  private static Jedis admin;

  @BeforeAll
  static void serverIsUp() {
    LocalRedis.assertUp();
    admin = LocalRedis.admin();
  }

  @AfterAll
  static void restoreServer() {
    if (admin != null) {
      // Leave the server as deploy/local/redis.sh starts it.
      admin.configSet("appendonly", "no");
      admin.configSet("appendfsync", "everysec");
      admin.close();
    }
  }

  private static String config(String key) {
    return admin.configGet(key).get(key);
  }

  /** The keys of a round trip topic's partitions: stream (or channel) {@code <topic>-<p>}. */
  private static List<String> partitionKeys(String topic) {
    return IntStream.range(0, DriverRoundTrip.PARTITIONS).mapToObj(p -> topic + "-" + p).toList();
  }

  @Test
  void streamsWithoutAofTurnAofOffAndDeliverExactlyOnce() throws Exception {
    admin.configSet("appendonly", "yes"); // the file must switch it off again
    try (RedisBenchmarkDriver driver = LocalRedis.open("redis.yaml")) {
      assertEquals("no", config("appendonly"));
      assertEquals("no", driver.brokerFacts().get("redis.appendonly"));
      streamsRoundTrip(driver);
    }
  }

  /** Without Sentinels the leader is the one server, as it says it is the primary. */
  @Test
  void leaderOfTheOneServerIsThatServer() throws Exception {
    try (RedisBenchmarkDriver driver = LocalRedis.open("redis.yaml")) {
      assertEquals("primary", driver.targets().get("primary"));
      assertEquals(java.util.Optional.of("127.0.0.1:" + PORT), driver.leaderOf("any-topic"));
    }
  }

  @Test
  void aofEverysecIsInEffectOnTheServer() throws Exception {
    assertAofInEffect("redis-aof-everysec.yaml", "everysec", "always");
  }

  @Test
  void aofAlwaysIsInEffectOnTheServer() throws Exception {
    assertAofInEffect("redis-aof-always.yaml", "always", "no");
    // The messages went through the AOF.
    String info = admin.info("persistence");
    assertTrue(info.contains("aof_enabled:1"), info);
  }

  /**
   * {@code file}, opened on a server set to no AOF and appendfsync {@code fsyncBefore}, turns the
   * AOF on with {@code fsync} on the server and in the facts, and delivers exactly once.
   */
  private static void assertAofInEffect(String file, String fsync, String fsyncBefore)
      throws Exception {
    admin.configSet("appendonly", "no");
    admin.configSet("appendfsync", fsyncBefore);
    try (RedisBenchmarkDriver driver = LocalRedis.open(file)) {
      assertEquals("yes", config("appendonly"));
      assertEquals(fsync, config("appendfsync"));
      assertEquals(fsync, driver.brokerFacts().get("redis.appendfsync"));
      assertEquals("yes", driver.brokerFacts().get("redis.appendonly"));
      streamsRoundTrip(driver);
    }
  }

  private static void streamsRoundTrip(RedisBenchmarkDriver driver) throws Exception {
    DriverRoundTrip.Result r =
        DriverRoundTrip.run(
            driver,
            ROUND_TRIP.checking(
                topic -> {
                  long stored = 0;
                  for (String stream : partitionKeys(topic)) {
                    stored += admin.xlen(stream);
                    // Every entry carries its real key as field "k", beside the payload "p".
                    List<StreamEntry> first = admin.xrange(stream, "-", "+", 1);
                    assertEquals(1, first.size(), stream);
                    assertTrue(
                        first.get(0).getFields().get("k").matches("key-\\d+"),
                        "key field: " + first.get(0).getFields());
                    // Both groups acknowledged everything their members read.
                    for (String group : List.of("shared", "single")) {
                      assertEquals(
                          0L,
                          admin.xpending(stream, group).getTotal(),
                          "pending entries in group " + group + " of " + stream);
                    }
                  }
                  assertEquals(MESSAGES, stored, "entries stored across the partition streams");
                }));
    r.assertSharedBetweenMembers();
    // deleteTopics removed the streams and the partition count.
    for (String stream : partitionKeys(r.topic())) {
      assertFalse(admin.exists(stream), stream);
    }
    assertFalse(admin.exists(r.topic() + ":partitions"));
  }

  @Test
  void pubSubDeliversToSubscriptionsThatExistBeforeSendingAndStoresNothing() throws Exception {
    try (RedisBenchmarkDriver driver = LocalRedis.open("redis-pubsub.yaml")) {
      assertEquals(RedisDriverConfig.Mode.PUBSUB, driver.config().mode());
      assertEquals("pubsub", driver.brokerFacts().get("redis.mode"));
      DriverRoundTrip.Result r =
          DriverRoundTrip.run(
              driver,
              ROUND_TRIP.checking(
                  topic -> {
                    for (String key : partitionKeys(topic)) {
                      assertFalse(admin.exists(key), "Pub/Sub stores no stream");
                    }
                  }));
      r.assertSharedBetweenMembers();
    }
  }

  @Test
  void ombDriverFileRunsUnchangedAsStreams() throws Exception {
    try (RedisBenchmarkDriver driver = LocalRedis.open("src/test/resources/omb-redis.yaml")) {
      assertEquals(RedisDriverConfig.Mode.STREAMS, driver.config().mode());
      assertEquals(8, driver.config().jedisPoolMaxTotal());
      // No durability fields: the server is left as it is, and its setting is still reported.
      assertEquals(config("appendonly"), driver.brokerFacts().get("redis.appendonly"));
      streamsRoundTrip(driver);
    }
    OmbDriverClass.assertAliasedAndListed(
        RedisBenchmarkDriver.class, "io.openmessaging.benchmark.driver.redis.RedisBenchmarkDriver");
  }

  @Override
  public RedisBenchmarkDriver newDriver() {
    return new RedisBenchmarkDriver();
  }

  @Override
  public Map<String, String> overrides() {
    return LocalRedis.overrides();
  }

  @Test
  void durabilityTheServerRefusesFailsInitialize(@TempDir Path dir) throws Exception {
    // A user without CONFIG rights: the server refuses CONFIG SET, as a managed Redis may.
    admin.aclSetUser("plumb-noconfig", "on", ">secret", "~*", "&*", "+@all", "-config");
    try {
      Path file = dir.resolve("aof.yaml");
      Files.writeString(
          file,
          "redisUser: plumb-noconfig\nredisPass: secret\nappendonly: yes\nappendfsync: always\n");
      String refusal = refusalOf(file, LocalRedis.overrides());
      assertFalse(refusal.contains("\n"), "one line: " + refusal);
      assertTrue(
          refusal.startsWith(file + ": field 'appendfsync': CONFIG SET appendfsync always"),
          refusal);
      assertTrue(refusal.contains("NOPERM"), refusal);
    } finally {
      admin.aclDelUser("plumb-noconfig");
    }
  }

  @Test
  void commandLineBeatsEnvironmentWhichBeatsFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("redis.yaml");
    Files.writeString(file, "redisHost: 127.0.0.1\nredisPort: 1\n");
    // The file's port is unreachable; the environment fixes it.
    try (RedisBenchmarkDriver driver = new RedisBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(file, Map.of(), Map.of("REDIS_PORT", PORT)));
      assertEquals(Integer.parseInt(PORT), driver.config().redisPort());
      assertEquals("127.0.0.1:" + PORT, driver.brokerFacts().get("redis.address"));
    }
    // The environment is unreachable; --driver-set fixes it.
    Map<String, String> env = new HashMap<>();
    env.put("REDIS_PORT", "2");
    env.put("REDIS_HOST", "127.0.0.2");
    try (RedisBenchmarkDriver driver = new RedisBenchmarkDriver()) {
      driver.initialize(
          DriverSettingsReader.config(
              file, Map.of("redisPort", PORT, "redisHost", "127.0.0.1"), env));
      assertEquals(Integer.parseInt(PORT), driver.config().redisPort());
    }
    String refusal = refusalOf(file, Map.of("redisPrt", "1"));
    assertTrue(
        refusal.startsWith(
            "--driver-set redisPrt=1: unknown field 'redisPrt' (did you mean 'redisPort'?)"),
        refusal);
  }
}
