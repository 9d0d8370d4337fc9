package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  /**
   * OMB's 10 GB backlog keeps 655,360 messages in each of 16 partitions: the shipped {@code maxLen}
   * would trim most of them unread, and the run would count them as lost.
   */
  @Test
  void aBacklogAboveMaxLenIsRefusedBeforeAnyTopicExists() {
    String line = BacklogSmokeRun.refusalOfTheOmbBacklog(Path.of("redis.yaml"), dir);
    assertTrue(
        line.contains(
            "field 'consumerBacklogSizeGB': a backlog of 10 GB keeps 655,360 messages in each"
                + " partition, and Redis"),
        line);
    assertTrue(
        line.endsWith(
            "keeps 100,000 before the broker discards the oldest, which would count as lost:"
                + " maxLen 100000 per partition stream (XADD MAXLEN ~); raise it with --driver-set"
                + " maxLen=N, 0 for none"),
        line);
  }
}
