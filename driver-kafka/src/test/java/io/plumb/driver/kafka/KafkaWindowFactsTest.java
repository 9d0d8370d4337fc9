package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.testkit.WindowFacts;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against the local broker: a run's result names the windows its clients ran with, the receive
 * window counted over the partitions the broker reports for the run's topic.
 */
class KafkaWindowFactsTest {
  @TempDir Path scratch;

  @Test
  void theResultCarriesTheWindowsAsOverridden() {
    // The receive window is per partition: 3 of 262,144 bytes over the smoke run's 3 partitions.
    Map<String, String> facts =
        WindowFacts.assertReported(
            Path.of("kafka.yaml"),
            Map.of("buffer.memory", "8388608", "max.partition.fetch.bytes", "262144"),
            scratch,
            "8388608 bytes",
            "786432 bytes");
    assertTrue(
        facts.get(BrokerFactNames.RECEIVE_WINDOW_LIMIT).startsWith("max.partition.fetch.bytes "),
        facts.toString());
  }
}
