package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against the local broker: a run's result names the windows its clients ran with, the receive
 * window counted over the partitions the broker reports for the run's topic.
 */
class KafkaWindowFactsTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @Test
  void theResultCarriesTheWindowsAsOverridden() {
    RunReport report =
        RUN.run(
            Path.of("kafka.yaml"),
            Map.of("buffer.memory", "8388608", "max.partition.fetch.bytes", "262144"),
            scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("8388608 bytes", facts.get(BrokerFactNames.SEND_WINDOW), facts.toString());
    // The smoke run's topic has 3 partitions.
    assertEquals("786432 bytes", facts.get(BrokerFactNames.RECEIVE_WINDOW), facts.toString());
    assertTrue(
        facts.get(BrokerFactNames.RECEIVE_WINDOW_LIMIT).startsWith("max.partition.fetch.bytes "),
        facts.toString());
  }
}
