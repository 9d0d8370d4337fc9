package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.input.BadInputException;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file asking for more stream replicas than the single local server has nodes is refused through
 * the engine with one line naming the file, the field and the node count, before the driver makes
 * any JetStream request (so before any stream or load exists).
 */
class NatsReplicationTest {
  private static final SmokeRun RUN = SmokeRun.standard();
  private static final String REFUSAL =
      ": field 'replicationFactor': asks for 3 copies but the NATS server at %s has 1 node"
          + " (start 3: deploy/local/nats.sh start --nodes 3)";

  @TempDir Path scratch;

  @Test
  void replicatedFileIsRefusedOnOneNodeBeforeAnyJetStreamRequest() throws Exception {
    assertRefused(
        Path.of("nats-jetstream-replicated.yaml"),
        "nats-jetstream-replicated.yaml:21"
            + REFUSAL.formatted(
                "nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224"));
  }

  /** OpenMessaging Benchmark's NATS file asks for 3 replicas: on one node, the same one line. */
  @Test
  void ombFormatFileAskingForThreeReplicasIsRefused() throws Exception {
    Path omb = scratch.resolve("omb-nats-3.yaml");
    Files.writeString(omb, LocalNats.OMB_FILE_THREE_REPLICAS);
    assertRefused(omb, omb + ":4" + REFUSAL.formatted("localhost:4222"));
  }

  private void assertRefused(Path file, String line) throws Exception {
    try (JetStreamRequests requests = JetStreamRequests.count()) {
      BadInputException e =
          assertThrows(BadInputException.class, () -> RUN.run(file, Map.of(), scratch));
      assertEquals(line, e.getMessage());
      // None came from the refused run: no stream created, no consumer, no publish.
      assertEquals(0, requests.sinceStart(), "JetStream requests during the refused run");
    }
  }
}
