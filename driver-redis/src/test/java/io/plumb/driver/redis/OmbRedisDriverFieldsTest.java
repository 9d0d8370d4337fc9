package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.OmbDriverFieldsContract;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * OpenMessaging Benchmark's Redis driver file, field by field: each lands where OMB's {@code
 * RedisBenchmarkDriver} puts it, checked up to the driver's settings (connecting needs a server:
 * RedisDriverTest). The file mirrors OMB's {@code driver-redis/redis.yaml}; {@code redisUser} and
 * {@code redisPass} are fields of OMB's {@code RedisClientConfig} that its file leaves out.
 */
class OmbRedisDriverFieldsTest extends OmbDriverFieldsContract<RedisDriverConfig> {
  private static final String OMB_FILE =
      """
      name: Redis
      driverClass: io.openmessaging.benchmark.driver.redis.RedisBenchmarkDriver

      redisPort: 6379
      redisHost: 127.0.0.1
      jedisPoolMaxTotal: 8
      jedisPoolMaxIdle: 8
      """;

  OmbRedisDriverFieldsTest() {
    super(
        "redis.yaml",
        OMB_FILE,
        fields -> RedisDriverConfig.read(fields, Map.of(), Map.of()),
        "Redis",
        RedisBenchmarkDriver.class);
  }

  /** OMB: the server's host and port; OMB writes to Redis Streams (XADD, consumer groups). */
  @Test
  void redisHostAndPort() {
    assertEquals("127.0.0.1", settings().redisHost());
    assertEquals(6379, settings().redisPort());
    assertEquals("127.0.0.1:6379", settings().address());
    assertEquals(RedisDriverConfig.Mode.STREAMS, settings().mode());
  }

  /** OMB: authenticate with the password (and the ACL user, when given); none when absent. */
  @Test
  void redisUserAndPass() throws IOException, DriverConfigException {
    assertNull(settings().redisUser());
    assertNull(settings().redisPass());
    RedisDriverConfig auth = variant(OMB_FILE + "redisUser: bench\nredisPass: secret\n");
    assertEquals("bench", auth.redisUser());
    assertEquals("secret", auth.redisPass());
  }

  /**
   * OMB: the Jedis pool's maximum and idle connections. In OMB every send and read borrows from
   * this pool; in Plumb it serves administrative commands only, producers and consumers holding a
   * connection each.
   */
  @Test
  void jedisPoolSizes() throws IOException, DriverConfigException {
    assertEquals(8, settings().jedisPoolMaxTotal());
    assertEquals(8, settings().jedisPoolMaxIdle());
    RedisDriverConfig other =
        variant(
            OMB_FILE
                .replace("jedisPoolMaxTotal: 8", "jedisPoolMaxTotal: 32")
                .replace("jedisPoolMaxIdle: 8", "jedisPoolMaxIdle: 4"));
    assertEquals(32, other.jedisPoolMaxTotal());
    assertEquals(4, other.jedisPoolMaxIdle());
  }
}
