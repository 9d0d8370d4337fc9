package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against the local server: a run's result names the windows its clients ran with. */
class RedisWindowFactsTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @Test
  void theResultCarriesTheWindowsAsOverridden() {
    RunReport report =
        RUN.run(
            Path.of("redis.yaml"), Map.of("pipelineDepth", "8", "readBatchSize", "50"), scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("8", facts.get(BrokerFactNames.SEND_WINDOW), facts.toString());
    // The smoke run's topic has 3 partitions.
    assertEquals("150", facts.get(BrokerFactNames.RECEIVE_WINDOW), facts.toString());
  }
}
