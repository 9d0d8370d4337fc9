package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.cli.CommandLineRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class RedisUnreachableTest {
  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut(@TempDir Path dir) {
    int port = CommandLineRun.unusedPort();
    CommandLineRun run = CommandLineRun.tinyRun(dir, "redis.yaml", "redisPort=" + port);
    assertEquals(
        List.of(),
        run.unreachableBrokerProblems(
            "redis.yaml", "127.0.0.1:" + port, "deploy/local/redis.sh start"));
  }
}
