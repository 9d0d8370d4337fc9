package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.plumb.input.BadInputException;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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

  private static Connection admin;
  private static JetStreamManagement jsm;

  @TempDir Path scratch;

  @BeforeAll
  static void connect() throws Exception {
    try {
      admin = Nats.connect("nats://127.0.0.1:4222");
    } catch (java.io.IOException e) {
      fail(
          "no NATS server on 127.0.0.1:4222 (" + e + "): start it with deploy/local/nats.sh start");
    }
    jsm = admin.jetStreamManagement();
  }

  @AfterAll
  static void closeAdmin() throws Exception {
    if (admin != null) {
      admin.close();
    }
  }

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
    Files.writeString(
        omb,
        "name: NATS\n"
            + "driverClass: io.openmessaging.benchmark.driver.nats.NatsBenchmarkDriver\n"
            + "natsHostUrl: localhost:4222\n"
            + "replicationFactor: 3\n");
    assertRefused(omb, omb + ":4" + REFUSAL.formatted("localhost:4222"));
  }

  private void assertRefused(Path file, String line) throws Exception {
    long apiCallsBefore = jsm.getAccountStatistics().getApi().getTotal();
    BadInputException e =
        assertThrows(BadInputException.class, () -> RUN.run(file, Map.of(), scratch));
    assertEquals(line, e.getMessage());
    // The server counts every JetStream API request it answers: none came from the refused run
    // (no stream created, no consumer, no publish), only this test's two readings.
    long apiCallsAfter = jsm.getAccountStatistics().getApi().getTotal();
    assertEquals(apiCallsBefore + 1, apiCallsAfter, "JetStream requests during the refused run");
  }
}
