package io.plumb.driver.pulsar;

import io.plumb.testkit.DriverFiles;
import io.plumb.testkit.FailedSendPartition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A send that fails names the partition it was routed to, as an acknowledged one does: the
 * framework measures unavailability per partition, and a failed send must open its partition's
 * window. Before, a failed send named no partition, so a broker outage longer than the send timeout
 * showed per partition only from the first send that was later acknowledged: the worst partition's
 * window was short by up to {@code sendTimeoutMs} (30 s), and a partition whose sends all failed
 * counted as not affected. Against the local standalone broker (deploy/local/pulsar.sh start); the
 * failure here is a body above the broker's maxMessageSize (5 MiB), which the client refuses after
 * routing the message, the same path as a send timing out.
 */
class PulsarFailedSendPartitionTest {
  private static final int ABOVE_THE_LIMIT = 6 << 20;

  @Test
  void aFailedSendNamesThePartitionItsKeyGoesTo() throws Exception {
    try (PulsarBenchmarkDriver driver =
        DriverFiles.open(PulsarBenchmarkDriver::new, Path.of("pulsar.yaml"), Map.of())) {
      String topic = driver.topicNamePrefix() + "-failed-" + System.nanoTime();
      FailedSendPartition.assertNamed(driver, topic, ABOVE_THE_LIMIT, Duration.ofSeconds(60));
    }
  }
}
