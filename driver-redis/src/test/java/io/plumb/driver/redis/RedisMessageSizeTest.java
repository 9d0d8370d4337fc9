package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1 MiB messages through a stream on the local server: far below proto-max-bulk-len (512 MB), so
 * they round-trip with their end-to-end latency recorded, and the driver names no size limit.
 */
class RedisMessageSizeTest {
  private static final int ONE_MIB = 1 << 20;

  @TempDir Path scratch;

  @Test
  void oneMibMessagesRoundTrip() {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 20, Duration.ofSeconds(2), ONE_MIB);
    RunReport report = run.run(Path.of("redis.yaml"), Map.of(), scratch);
    assertEquals(List.of(), run.deliveryProblems(report));
    assertNull(report.brokerFacts().get(BrokerFactNames.MAX_MESSAGE_BYTES));
  }
}
