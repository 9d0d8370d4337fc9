package io.plumb.driver.rabbitmq;

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
 * Large messages on the local node. Over AMQP 0.9.1 (a classic queue) 1 MiB is far below the
 * broker's max_message_size and round-trips. The stream protocol sends a message in one publish
 * frame of at most the negotiated frame size (1 MiB by default on both sides): the largest message
 * that fits round-trips, and one byte more is refused before any stream exists, naming both
 * settings, instead of sends that never complete.
 */
class RabbitMqMessageSizeTest {
  private static final int ONE_MIB = 1 << 20;
  private static final int STREAM_LARGEST = ONE_MIB - 32;

  @TempDir Path scratch;

  @Test
  void oneMibRoundTripsOverAmqp() {
    assertRoundTrip("rabbitmq.yaml", ONE_MIB);
  }

  @Test
  void theLargestMessageAFrameHoldsRoundTripsOverTheStreamProtocol() {
    RunReport report = assertRoundTrip("rabbitmq-stream-protocol.yaml", STREAM_LARGEST);
    assertEquals(
        String.valueOf(STREAM_LARGEST),
        report.brokerFacts().get(BrokerFactNames.MAX_MESSAGE_BYTES));
  }

  @Test
  void oneByteMoreIsRefusedNamingTheFrameSettings() {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 20, Duration.ofSeconds(2), STREAM_LARGEST + 1);
    BadInputException refused =
        assertThrows(
            BadInputException.class,
            () -> run.run(Path.of("rabbitmq-stream-protocol.yaml"), Map.of(), scratch));
    assertEquals(
        scratch.resolve("smoke-rabbitmq-stream-protocol.yaml")
            + ": field 'messageSize': 1,048,545 bytes is more than RabbitMQ-stream-protocol"
            + " (rabbitmq-stream-protocol.yaml) can send as configured, 1,048,544 bytes: the"
            + " stream connection's frame size 1048576 (the smaller of the driver's"
            + " requestedMaxFrameSize 1048576 and the broker's stream.frame_max), less 32 bytes of"
            + " publish frame and AMQP 1.0 data section; raise both, e.g. --driver-set"
            + " requestedMaxFrameSize=N and stream.frame_max = N in rabbitmq.conf",
        refused.getMessage());
    assertFalse(refused.getMessage().contains("\n"));
  }

  private RunReport assertRoundTrip(String driverFile, int messageSize) {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 20, Duration.ofSeconds(2), messageSize);
    RunReport report = run.run(Path.of(driverFile), Map.of(), scratch);
    assertEquals(List.of(), run.deliveryProblems(report));
    return report;
  }
}
