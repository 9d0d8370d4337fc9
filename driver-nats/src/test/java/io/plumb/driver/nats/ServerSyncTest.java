package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sync policy read from a server's /varz, on answers shaped as nats-server 2.15 gives them (its
 * JetStream configuration: {@code sync_always} only when set, {@code sync_interval} in
 * nanoseconds), without a server.
 */
class ServerSyncTest {
  private static final URI MONITOR = URI.create("http://127.0.0.1:8222");

  private static String varz(String name, String config) {
    return "{\"server_name\":\""
        + name
        + "\",\"version\":\"2.15.3\",\"jetstream\":{\"config\":{"
        + config
        + "}}}";
  }

  private static ServerSync.Reading reading(String json) throws Exception {
    return ServerSync.reading(json, MONITOR);
  }

  @Test
  void anAnswerThatIsNotJsonIsRefusedNamingTheUrl() {
    IOException e = assertThrows(IOException.class, () -> reading("<html>monitor</html>"));
    assertTrue(e.getMessage().startsWith("http://127.0.0.1:8222/varz: not JSON ("), e.getMessage());
  }

  @Test
  void syncAlwaysIsAlways() throws Exception {
    assertEquals(
        new ServerSync.Reading("n1", "always", MONITOR),
        reading(varz("n1", "\"sync_interval\":120000000000,\"sync_always\":true")));
  }

  @Test
  void twoMinutesWithoutSyncAlwaysIsNatsDefault() throws Exception {
    assertEquals("default", reading(varz("n2", "\"sync_interval\":120000000000")).policy());
  }

  @Test
  void anotherIntervalIsNamed() throws Exception {
    assertEquals("every 10 s", reading(varz("n1", "\"sync_interval\":10000000000")).policy());
    assertEquals("every 0.25 s", reading(varz("n1", "\"sync_interval\":250000000")).policy());
  }

  @Test
  void aServerWithoutJetStreamHasNoPolicyToReport() {
    IOException e = assertThrows(IOException.class, () -> reading("{\"server_name\":\"n1\"}"));
    assertTrue(e.getMessage().contains("reports no JetStream configuration"), e.getMessage());
  }

  @Test
  void serversThatAgreeAreOnePolicyAndOthersAreNamedEach() {
    ServerSync.Reading n1 = new ServerSync.Reading("n1", "always", MONITOR);
    ServerSync.Reading n2 = new ServerSync.Reading("n2", "always", MONITOR);
    ServerSync.Reading n3 = new ServerSync.Reading("n3", "default", MONITOR);
    assertEquals("always", ServerSync.describe(List.of(n1, n2)));
    assertEquals("n1 always, n2 always, n3 default", ServerSync.describe(List.of(n1, n2, n3)));
  }
}
