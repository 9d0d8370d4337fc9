package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.BrokerFactNames;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Messages smaller than Plumb's header on the local server (deploy/local/nats.sh start): the header
 * travels as the NATS message header 'Plumb', the payload is the body alone, and every message
 * arrives once with its end-to-end latency, on core NATS and JetStream; JetStream's final read
 * hands the header apart too, message by message.
 */
class NatsMetadataHeaderTest {
  private static final Map<String, String> OVERRIDES = LocalNats.overrides();

  @TempDir Path scratch;

  @ParameterizedTest
  @ValueSource(strings = {"nats.yaml", "nats-jetstream.yaml"})
  void oneByteMessagesCarryTheHeaderInAMessageHeader(String file) {
    SmokeRun run = SmokeRun.oneByte();
    RunReport report = run.run(Path.of(file), OVERRIDES, scratch);
    assertEquals(
        List.of(),
        run.metadataHeaderProblems(
            report,
            "NATS message header 'Plumb', +60 bytes per message on the wire beside each 1-byte"
                + " payload"));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("NATS message header 'Plumb'", facts.get(BrokerFactNames.HEADER_METADATA));
    assertEquals("60", facts.get(BrokerFactNames.HEADER_METADATA_BYTES));
  }

  /**
   * A stream holding messages with the header in a message header and messages with it in the
   * payload: the final read decides per message, and hands each over once, the first kind apart.
   */
  @Test
  void theFinalReadHandsTheHeaderApartMessageByMessage() throws Exception {
    MixedHeaderMessages messages = new MixedHeaderMessages(400);
    try (NatsBenchmarkDriver driver = new NatsBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(Path.of("nats-jetstream.yaml"), OVERRIDES));
      String topic = DriverRoundTrip.newTopicName("plumb-metaread");
      driver.createTopic(topic, 2).get(60, TimeUnit.SECONDS);
      assertEquals(
          List.of(), messages.sendThenReadToEnd(driver, topic, "sub-a", Duration.ofSeconds(60)));
    }
  }
}
