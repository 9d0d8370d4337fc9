package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.testkit.BacklogSmokeRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog workload through the whole engine on the local server: the stream consumers pause (each
 * reader stops before its next XREADGROUP) while 5,120 messages of 1 KiB pile up in the streams,
 * then resume and drain them, with every message received exactly once.
 */
class RedisBacklogTest {
  @TempDir Path dir;

  @Test
  void consumersPauseWhileTheBacklogBuildsThenDrainIt() {
    assertEquals(List.of(), BacklogSmokeRun.run(Path.of("redis.yaml"), dir).problems());
  }
}
