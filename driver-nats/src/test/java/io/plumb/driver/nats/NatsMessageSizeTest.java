package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.input.BadInputException;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 20, Duration.ofSeconds(2), ONE_MIB);
    assertEquals(List.of(), run.deliveryProblems(run.run(Path.of("nats.yaml"), Map.of(), scratch)));
  }

  @Test
  void oneByteMoreIsRefusedNamingMaxPayload() {
    SmokeRun run = new SmokeRun(2, 1, 1, 1, 20, Duration.ofSeconds(2), ONE_MIB + 1);
    BadInputException refused =
        assertThrows(
            BadInputException.class, () -> run.run(Path.of("nats.yaml"), Map.of(), scratch));
    assertEquals(
        scratch.resolve("smoke-nats.yaml")
            + ": field 'messageSize': 1,048,577 bytes is more than NATS core (nats.yaml) can send"
            + " as configured, 1,048,576 bytes: the server's max_payload 1048576; raise max_payload"
            + " in its configuration (at most 64 MB; 8 MB is the server's advice)",
        refused.getMessage());
  }
}
