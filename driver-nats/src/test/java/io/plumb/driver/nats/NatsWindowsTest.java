package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.ClientWindow;
import io.plumb.testkit.DriverFiles;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The windows the NATS driver reports, from the shipped files and overrides, without a server. */
class NatsWindowsTest {

  private static Map<String, String> facts(String file, Map<String, String> overrides)
      throws Exception {
    return NatsWindows.facts(
        DriverFiles.settings(Path.of(file), overrides, f -> NatsDriverConfig.read(f, Map.of())));
  }

  @Test
  void jetStreamBoundsOutstandingPublishesAndPulls() throws Exception {
    Map<String, String> facts = facts("nats-jetstream.yaml", Map.of());
    assertEquals("1024", facts.get(BrokerFactNames.SEND_WINDOW));
    assertEquals("maxOutstandingPublishes", ClientWindow.send(facts).orElseThrow().setting());
    // A pull of 256 is below the durable's maxAckPending of 10,000.
    assertEquals("256", facts.get(BrokerFactNames.RECEIVE_WINDOW));
    String limit = facts.get(BrokerFactNames.RECEIVE_WINDOW_LIMIT);
    assertTrue(limit.startsWith("pullBatchSize 256 messages per pull"), limit);
    assertTrue(limit.contains("maxAckPending 10000"), limit);
  }

  @Test
  void maxAckPendingDecidesWhenItIsTheSmallerOrForPush() throws Exception {
    assertEquals(
        "100",
        facts("nats-jetstream.yaml", Map.of("maxAckPending", "100"))
            .get(BrokerFactNames.RECEIVE_WINDOW));
    Map<String, String> push = facts("nats-jetstream.yaml", Map.of("consumerType", "push"));
    assertEquals("10000", push.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals("maxAckPending", ClientWindow.receive(push).orElseThrow().setting());
  }

  @Test
  void coreNatsHasNoWindowOnEitherSide() throws Exception {
    Map<String, String> facts = facts("nats.yaml", Map.of());
    assertEquals(BrokerFactNames.UNBOUNDED, facts.get(BrokerFactNames.SEND_WINDOW));
    assertEquals(BrokerFactNames.UNBOUNDED, facts.get(BrokerFactNames.RECEIVE_WINDOW));
    assertEquals("mode", ClientWindow.send(facts).orElseThrow().setting());
  }
}
