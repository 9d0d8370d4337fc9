package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nats.client.api.ServerInfo;
import io.plumb.driver.MessageListener;
import org.junit.jupiter.api.Test;

/** A server older than NATS 2.11 has no consumer pause API: pausing is refused, naming both. */
class DurablePausesTest {
  private static final Durable DURABLE = new Durable("s", "d");
  private static final MessageListener IGNORED =
      new MessageListener() {
        @Override
        public void received(byte[] payload, int partition) {}

        @Override
        public void failed(Throwable error) {}
      };

  @Test
  void aServerOlderThan211CannotPauseConsumers() throws Exception {
    ServerInfo old = new ServerInfo("INFO {\"server_id\":\"x\",\"version\":\"2.10.22\"}");
    try (DurablePauses pauses = new DurablePauses(null, () -> old)) {
      UnsupportedOperationException refused =
          assertThrows(UnsupportedOperationException.class, () -> pauses.pause(DURABLE, IGNORED));
      assertEquals(
          "NATS server 2.10.22 cannot pause JetStream consumers: the consumer pause API needs 2.11.0"
              + " or later",
          refused.getMessage());
      assertThrows(UnsupportedOperationException.class, () -> pauses.resume(DURABLE, IGNORED));
    }
  }
}
