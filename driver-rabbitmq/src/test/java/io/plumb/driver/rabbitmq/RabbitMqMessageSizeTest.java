package io.plumb.driver.rabbitmq;

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
    SmokeRun.ofMessageSize(ONE_MIB).assertDelivers(Path.of("rabbitmq.yaml"), Map.of(), scratch);
  }

  @Test
  void theLargestMessageAFrameHoldsRoundTripsOverTheStreamProtocol() {
    RunReport report =
        SmokeRun.ofMessageSize(STREAM_LARGEST)
            .assertDelivers(Path.of("rabbitmq-stream-protocol.yaml"), Map.of(), scratch);
    assertEquals(
        String.valueOf(STREAM_LARGEST),
        report.brokerFacts().get(BrokerFactNames.MAX_MESSAGE_BYTES));
  }

  @Test
  void oneByteMoreIsRefusedNamingTheFrameSettings() {
    OversizedMessage.assertRefused(
        Path.of("rabbitmq-stream-protocol.yaml"),
        STREAM_LARGEST + 1,
        scratch,
        "1,048,545 bytes is more than RabbitMQ-stream-protocol (rabbitmq-stream-protocol.yaml)"
            + " can send as configured, 1,048,544 bytes: the stream connection's frame size"
            + " 1048576 (the smaller of the driver's requestedMaxFrameSize 1048576 and the"
            + " broker's stream.frame_max), less 32 bytes of publish frame and AMQP 1.0 data"
            + " section; raise both, e.g. --driver-set requestedMaxFrameSize=N and"
            + " stream.frame_max = N in rabbitmq.conf");
  }
}
