package io.plumb.driver.pulsar;

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
 * Message sizes against the local broker's maxMessageSize (5 MiB by default, less 1 KiB the driver
 * keeps for the message's metadata): 1 MiB messages round-trip with their end-to-end latency
 * recorded, and one byte above the limit is refused before any topic exists, naming the setting.
 */
class PulsarMessageSizeTest {
  private static final int ONE_MIB = 1 << 20;

  @TempDir Path scratch;

  @Test
  void oneMibMessagesRoundTrip() {
    RunReport report =
        SmokeRun.ofMessageSize(ONE_MIB).assertDelivers(Path.of("pulsar.yaml"), Map.of(), scratch);
    assertEquals(
        String.valueOf(5 * ONE_MIB - 1024),
        report.brokerFacts().get(BrokerFactNames.MAX_MESSAGE_BYTES));
  }

  @Test
  void oneByteAboveTheLimitIsRefusedNamingMaxMessageSize() {
    OversizedMessage.assertRefused(
        Path.of("pulsar.yaml"),
        5 * ONE_MIB - 1024 + 1,
        scratch,
        "5,241,857 bytes is more than Pulsar (pulsar.yaml) can send as configured, 5,241,856"
            + " bytes: broker maxMessageSize 5242880, less 1024 bytes for the message's metadata;"
            + " raise maxMessageSize in the broker's configuration (and nettyMaxFrameSizeBytes"
            + " with it)");
  }
}
