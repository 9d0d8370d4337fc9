package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.coordinator.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each shipped driver file, run through the whole engine against the local broker: keyed load over
 * 3 partitions, two subscriptions of two consumers, every message acknowledged and received exactly
 * once by each subscription.
 */
class KafkaBenchmarkRunTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @ParameterizedTest
  @ValueSource(
      strings = {"kafka.yaml", "kafka-throughput.yaml", "kafka-latency.yaml", "kafka-sync.yaml"})
  void shippedFileDeliversEveryMessageThroughTheEngine(String file) {
    assertEquals(List.of(), RUN.deliveryProblems(RUN.run(Path.of(file), Map.of(), scratch)));
  }
}
