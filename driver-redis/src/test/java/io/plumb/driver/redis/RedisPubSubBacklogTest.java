package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.input.BadInputException;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.nio.file.Files;
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
  void pubSubRefusesABacklogWorkloadInOneLine() throws Exception {
    Path workload =
        Files.writeString(
            dir.resolve("backlog.yaml"),
            """
            name: redis-pubsub-backlog
            topics: 1
            partitionsPerTopic: 3
            messageSize: 1024
            subscriptionsPerTopic: 1
            consumerPerSubscription: 2
            producersPerTopic: 1
            producerRate: 4000
            consumerBacklogSizeGB: 0.0048828125
            testDurationSeconds: 1
            warmupDurationSeconds: 1
            """);
    BenchmarkRun run =
        new BenchmarkRun(
            WorkloadReader.read(workload),
            Path.of("redis-pubsub.yaml"),
            new LocalWorker(),
            RunOptions.defaults()
                .withDriverOverrides(PORT.equals("6379") ? Map.of() : Map.of("redisPort", PORT)),
            RunListener.SILENT);

    BadInputException refused = assertThrows(BadInputException.class, run::execute);

    assertEquals(
        workload
            + ": field 'consumerBacklogSizeGB': driver Redis Pub/Sub cannot pause consumers, which"
            + " building a backlog needs (Redis pub/sub keeps no messages for a subscriber that is"
            + " not reading, so no backlog can build; use a Redis Streams file such as"
            + " driver-redis/redis.yaml); use 0 or another driver",
        refused.getMessage());
    assertFalse(refused.getMessage().contains("\n"));
  }
}
