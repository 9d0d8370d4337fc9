package io.plumb.driver.nats;

import io.plumb.testkit.OversizedMessage;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Message sizes against the server's max_payload (1 MiB by default): a message of exactly 1 MiB
 * runs with nothing lost; one byte more is refused before any topic exists, naming the setting.
 */
class NatsMessageSizeTest {
  private static final int ONE_MIB = 1 << 20;

  @TempDir Path scratch;

  @Test
  void aMessageAtMaxPayloadRuns() {
    SmokeRun.ofMessageSize(ONE_MIB).assertDelivers(Path.of("nats.yaml"), Map.of(), scratch);
  }

  @Test
  void oneByteMoreIsRefusedNamingMaxPayload() {
    OversizedMessage.assertRefused(
        Path.of("nats.yaml"),
        ONE_MIB + 1,
        scratch,
        "1,048,577 bytes is more than NATS core (nats.yaml) can send as configured, 1,048,576"
            + " bytes: the server's max_payload 1048576; raise max_payload in its configuration"
            + " (at most 64 MB; 8 MB is the server's advice)");
  }
}
