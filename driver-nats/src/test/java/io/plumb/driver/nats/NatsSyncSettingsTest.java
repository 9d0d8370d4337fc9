package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.DriverFiles;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fields {@code expectSync} and {@code natsMonitorUrl}, read without a server. */
class NatsSyncSettingsTest {
  @TempDir Path dir;

  private NatsDriverConfig read(String yaml) throws Exception {
    Path file = Files.writeString(dir.resolve("sync.yaml"), yaml);
    return DriverFiles.settings(file, Map.of(), f -> NatsDriverConfig.read(f, Map.of()));
  }

  private String refusal(String yaml) {
    return assertThrows(DriverConfigException.class, () -> read(yaml)).getMessage();
  }

  @Test
  void noExpectationByDefault() throws Exception {
    assertNull(read("mode: jetstream\n").expectSync());
    assertEquals(NatsDriverConfig.Sync.ALWAYS, read("expectSync: always\n").expectSync());
    assertEquals(NatsDriverConfig.Sync.DEFAULT, read("expectSync: default\n").expectSync());
  }

  /** NATS's customary monitoring port on each host the client connects to, once per host. */
  @Test
  void monitorsDefaultToPort8222OfEveryHost() throws Exception {
    assertEquals(
        List.of(URI.create("http://127.0.0.1:8222"), URI.create("http://n2:8222")),
        read("natsHostUrl: nats://127.0.0.1:4222,127.0.0.1:4223,nats://n2:4222\n").monitors());
    assertEquals(
        List.of(URI.create("http://127.0.0.1:8223"), URI.create("http://127.0.0.1:8224")),
        read("natsMonitorUrl: http://127.0.0.1:8223, http://127.0.0.1:8224\n").monitors());
  }

  @Test
  void badValuesAreRefusedWithFileLineAndField() {
    Path file = dir.resolve("sync.yaml");
    assertEquals(
        file + ":2: field 'expectSync': expected one of always, default, got 'sometimes'",
        refusal("mode: jetstream\nexpectSync: sometimes\n"));
    assertEquals(
        file
            + ":2: field 'expectSync': core NATS stores nothing, so there is no sync policy to"
            + " expect",
        refusal("mode: core\nexpectSync: always\n"));
    assertEquals(
        file
            + ":1: field 'natsMonitorUrl': '127.0.0.1:8222' is no http://host:port monitoring"
            + " endpoint",
        refusal("natsMonitorUrl: 127.0.0.1:8222\n"));
  }
}
