package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.input.BadInputException;
import io.plumb.testkit.BacklogSmokeRun;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
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
    Path workload = BacklogSmokeRun.writeWorkload(dir);
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
        BacklogSmokeRun.refusal(
            workload,
            "Redis Pub/Sub",
            "Redis pub/sub keeps no messages for a subscriber that is not reading, so no backlog"
                + " can build; use a Redis Streams file such as driver-redis/redis.yaml"),
        refused.getMessage());
    assertFalse(refused.getMessage().contains("\n"));
  }
}
