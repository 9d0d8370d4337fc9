package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.DriverConfigException;
import io.plumb.input.BadInputException;
import io.plumb.testkit.SmokeRun;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JetStream's sync policy against the single local server ({@code deploy/local/nats.sh start},
 * which keeps NATS's default): read back from the server's /varz into the result, and a file that
 * expects another policy refused through the engine with one line, before the driver makes any
 * JetStream request.
 */
class NatsSyncTest {
  private static final SmokeRun RUN = SmokeRun.standard();
  private static final String HEAD =
      "name: NATS\n"
          + "driverClass: io.openmessaging.benchmark.driver.nats.NatsBenchmarkDriver\n"
          + "natsHostUrl: nats://127.0.0.1:4222\n";

  @TempDir Path scratch;

  @Test
  void fileExpectingSyncAlwaysIsRefusedOnAServerThatSyncsByDefault() throws Exception {
    Path file = Files.writeString(scratch.resolve("always.yaml"), HEAD + "expectSync: always\n");
    try (JetStreamRequests requests = JetStreamRequests.count()) {
      BadInputException e =
          assertThrows(BadInputException.class, () -> RUN.run(file, Map.of(), scratch));

      assertEquals(
          file
              + ":4: field 'expectSync': expects sync always but the NATS servers at"
              + " http://127.0.0.1:8222 report default"
              + " (start them with: deploy/local/nats.sh start --sync always)",
          e.getMessage());
      // None reached JetStream from the refused run: no stream, consumer or publish.
      assertEquals(0, requests.sinceStart(), "JetStream requests during the refused run");
    }
  }

  @Test
  void thePolicyTheServerReportsIsInTheResult() throws Exception {
    Path file = Files.writeString(scratch.resolve("default.yaml"), HEAD + "expectSync: default\n");
    try (NatsBenchmarkDriver driver = new NatsBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(file, Map.of()));
      assertEquals("default", driver.brokerFacts().get(NatsBenchmarkDriver.SYNC_FACT));
    }
  }

  /**
   * Where no monitoring endpoint answers, the result says the policy is unknown and why; a file
   * that expects one is refused, since nothing shows the servers have it.
   */
  @Test
  void anUnreadablePolicyIsUnknownAndRefusesAFileThatExpectsOne() throws Exception {
    String closed = "natsMonitorUrl: http://127.0.0.1:1\n";
    Path any = Files.writeString(scratch.resolve("any.yaml"), HEAD + closed);
    try (NatsBenchmarkDriver driver = new NatsBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(any, Map.of()));
      String fact = driver.brokerFacts().get(NatsBenchmarkDriver.SYNC_FACT);
      assertTrue(fact.startsWith("unknown (http://127.0.0.1:1/varz: "), fact);
    }

    Path expects =
        Files.writeString(scratch.resolve("expects.yaml"), HEAD + closed + "expectSync: default\n");
    DriverConfigException e =
        assertThrows(
            DriverConfigException.class,
            () ->
                new NatsBenchmarkDriver()
                    .initialize(DriverSettingsReader.config(expects, Map.of())));
    assertTrue(
        e.getMessage()
            .startsWith(
                expects
                    + ":5: field 'expectSync': expects sync default but the servers' sync policy"
                    + " could not be read: http://127.0.0.1:1/varz: "),
        e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
  }
}
