package io.plumb.driver.redis;

import io.plumb.testkit.WindowFacts;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against the local server: a run's result names the windows its clients ran with. */
class RedisWindowFactsTest {
  @TempDir Path scratch;

  @Test
  void theResultCarriesTheWindowsAsOverridden() {
    // The receive window is per partition: 3 reads of 50 over the smoke run's 3 partitions.
    WindowFacts.assertReported(
        Path.of("redis.yaml"),
        Map.of("pipelineDepth", "8", "readBatchSize", "50"),
        scratch,
        "8",
        "150");
  }
}
