package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.result.RunReport;
import io.plumb.testkit.MixedHeaderMessages;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Messages smaller than Plumb's header on the local standalone broker (deploy/local/pulsar.sh
 * start): the header travels as a message property, the payload is the body alone, and every
 * message arrives once with its end-to-end latency; the final read hands such messages on with
 * their header apart, and plain ones whole. Batched and unbatched, as the property then lives in a
 * different part of the message's metadata.
 */
class PulsarMetadataHeaderTest {

  @TempDir Path scratch;

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void oneByteMessagesCarryTheHeaderInAMessageProperty(boolean batching) {
    SmokeRun run = SmokeRun.oneByte();
    RunReport report = run.run(Path.of("pulsar.yaml"), batching(batching), scratch);
    assertEquals(
        List.of(),
        run.metadataHeaderProblems(
            report,
            "Pulsar message property 'plumb', +46 bytes per message on the wire beside each"
                + " 1-byte payload"));
  }

  /** Keyed, the messages spread over three partitions; each must come back as it travelled. */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void theFinalReadHandsEachMessageOnAsItTravelled(boolean batching) throws Exception {
    MixedHeaderMessages messages = new MixedHeaderMessages(400);
    try (PulsarBenchmarkDriver driver = new PulsarBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(Path.of("pulsar.yaml"), batching(batching)));
      String topic = driver.topicNamePrefix() + "-header-" + System.nanoTime();
      driver.createTopic(topic, 3).get(60, TimeUnit.SECONDS);
      assertEquals(
          List.of(), messages.sendThenReadToEnd(driver, topic, "sub", Duration.ofSeconds(120)));
    }
  }

  private static Map<String, String> batching(boolean batching) {
    return Map.of("producer.batchingEnabled", String.valueOf(batching));
  }
}
