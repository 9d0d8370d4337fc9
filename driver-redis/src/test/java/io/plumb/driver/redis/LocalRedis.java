package io.plumb.driver.redis;

import io.plumb.testkit.BrokerPort;
import io.plumb.testkit.DriverFiles;
import java.nio.file.Path;
import java.util.Map;
import redis.clients.jedis.Jedis;

/**
 * The single local server the default tests run against ({@code deploy/local/redis.sh start}), on
 * the port {@code PLUMB_REDIS_PORT} names, 6379 (the shipped files' port) by default.
 */
final class LocalRedis {
  static final String PORT = System.getenv().getOrDefault("PLUMB_REDIS_PORT", "6379");

  private LocalRedis() {}

  /** Fails the test in one line naming the start command when no server listens. */
  static void assertUp() {
    BrokerPort.assertListening(
        "Redis server", Integer.parseInt(PORT), "deploy/local/redis.sh start");
  }

  /** A connection of its own, which reads the server's state back apart from the driver. */
  static Jedis admin() {
    return new Jedis("127.0.0.1", Integer.parseInt(PORT));
  }

  /** The --driver-set that points a shipped file at the server: none on the files' own port. */
  static Map<String, String> overrides() {
    return PORT.equals("6379") ? Map.of() : Map.of("redisPort", PORT);
  }

  /** A driver initialized from the shipped {@code file}, pointed at the server. */
  static RedisBenchmarkDriver open(String file) throws Exception {
    return DriverFiles.open(() -> new RedisBenchmarkDriver(), Path.of(file), overrides());
  }
}
