package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertNull;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
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
    RunReport report =
        SmokeRun.ofMessageSize(ONE_MIB).assertDelivers(Path.of("redis.yaml"), Map.of(), scratch);
    assertNull(report.brokerFacts().get(BrokerFactNames.MAX_MESSAGE_BYTES));
  }
}
