package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.result.RunReport;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.MixedHeaderMessages;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Messages smaller than Plumb's header on the local broker: the header travels as a record header,
 * the payload is the body alone, and every message arrives once with its end-to-end latency; the
 * final read hands such records on with their header apart, and plain ones whole.
 */
class KafkaMetadataHeaderTest {

  @TempDir Path scratch;

  @Test
  void oneByteMessagesCarryTheHeaderInARecordHeader() {
    SmokeRun run = SmokeRun.oneByte();
    RunReport report = run.run(Path.of("kafka.yaml"), Map.of(), scratch);
    assertEquals(
        List.of(),
        run.metadataHeaderProblems(
            report,
            "Kafka record header 'plumb', +33 bytes per message on the wire beside each 1-byte"
                + " payload"));
  }

  @Test
  void theFinalReadHandsEachRecordOnAsItTravelled() throws Exception {
    MixedHeaderMessages messages = new MixedHeaderMessages(400);
    try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(Path.of("kafka.yaml"), Map.of()));
      String topic = DriverRoundTrip.newTopicName("plumb-header-final");
      driver.createTopic(topic, 3).get(60, TimeUnit.SECONDS);
      assertEquals(
          List.of(), messages.sendThenReadToEnd(driver, topic, "sub", Duration.ofSeconds(60)));
    }
  }
}
