package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.testkit.BacklogSmokeRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog workload through the whole engine on the local broker: the Kafka consumers pause (on
 * their poll threads) while 5,120 messages of 1 KiB pile up, then resume and drain them, with every
 * message received exactly once.
 */
class KafkaBacklogTest {
  @TempDir Path dir;

  @Test
  void consumersPauseWhileTheBacklogBuildsThenDrainIt() {
    assertEquals(List.of(), BacklogSmokeRun.run(Path.of("kafka.yaml"), dir).problems());
  }
}
