package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.OversizedMessage;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1 MiB messages against the local broker: with the client's and broker's defaults a record of 1
 * MiB and its framing is above max.request.size, so the run is refused before any topic exists,
 * naming both settings; raised, the same messages run with nothing lost.
 */
class KafkaMessageSizeTest {
  private static final int ONE_MIB = 1 << 20;

  @TempDir Path scratch;

  @Test
  void aMessageAboveTheDefaultLimitsIsRefusedNamingTheSettings() {
    OversizedMessage.assertRefused(
        Path.of("kafka.yaml"),
        ONE_MIB,
        scratch,
        "1,048,576 bytes is more than Kafka (kafka.yaml) can send as configured, 1,048,476 bytes:"
            + " producer max.request.size 1048576 and topic max.message.bytes 1048588 (the"
            + " broker's message.max.bytes), less 100 bytes of record and batch framing; raise"
            + " both, e.g. --driver-set max.request.size=N --driver-set"
            + " topicConfig.max.message.bytes=N");
  }

  @Test
  void raisedLimitsCarryTheSameMessages() {
    RunReport report =
        SmokeRun.ofMessageSize(ONE_MIB)
            .assertDelivers(
                Path.of("kafka.yaml"),
                Map.of("max.request.size", "2097152", "topicConfig.max.message.bytes", "2097152"),
                scratch);
    assertEquals(
        String.valueOf(2097152 - BrokerFacts.RECORD_FRAMING_BYTES),
        report.brokerFacts().get(BrokerFactNames.MAX_MESSAGE_BYTES));
  }
}
