package io.plumb.driver.redis;

import io.plumb.testkit.BacklogSmokeRun;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog workload on Redis Pub/Sub, through the whole engine against the local server: refused
 * in one line before any load, saying why and what to use instead. (StreamConsumerPauseTest checks
 * that Streams consumers pause.)
 */
class RedisPubSubBacklogTest {
  private static final String PORT = System.getenv().getOrDefault("PLUMB_REDIS_PORT", "6379");

  @TempDir Path dir;

  @Test
  void pubSubRefusesABacklogWorkloadInOneLine() {
    BacklogSmokeRun.assertRefused(
        Path.of("redis-pubsub.yaml"),
        PORT.equals("6379") ? Map.of() : Map.of("redisPort", PORT),
        dir,
        "Redis Pub/Sub",
        "Redis pub/sub keeps no messages for a subscriber that is not reading, so no backlog"
            + " can build; use a Redis Streams file such as driver-redis/redis.yaml");
  }
}
