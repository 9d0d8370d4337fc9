package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.driver.BrokerFactNames;
import io.plumb.input.BadInputException;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 20, Duration.ofSeconds(2), ONE_MIB);
    RunReport report = run.run(Path.of("pulsar.yaml"), Map.of(), scratch);
    assertEquals(List.of(), run.deliveryProblems(report));
    assertEquals(
        String.valueOf(5 * ONE_MIB - 1024),
        report.brokerFacts().get(BrokerFactNames.MAX_MESSAGE_BYTES));
  }

  @Test
  void oneByteAboveTheLimitIsRefusedNamingMaxMessageSize() {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 20, Duration.ofSeconds(2), 5 * ONE_MIB - 1024 + 1);
    BadInputException refused =
        assertThrows(
            BadInputException.class, () -> run.run(Path.of("pulsar.yaml"), Map.of(), scratch));
    assertEquals(
        scratch.resolve("smoke-pulsar.yaml")
            + ": field 'messageSize': 5,241,857 bytes is more than Pulsar (pulsar.yaml) can send as"
            + " configured, 5,241,856 bytes: broker maxMessageSize 5242880, less 1024 bytes for the"
            + " message's metadata; raise maxMessageSize in the broker's configuration (and"
            + " nettyMaxFrameSizeBytes with it)",
        refused.getMessage());
    assertFalse(refused.getMessage().contains("\n"));
  }
}
