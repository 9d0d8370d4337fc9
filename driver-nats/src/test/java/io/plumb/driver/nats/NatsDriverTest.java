package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.plumb.testkit.DriverFileRefusalContract;
import io.plumb.testkit.DriverFiles;
import io.plumb.testkit.DriverRoundTrip;
import io.plumb.testkit.OmbDriverClass;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the driver against the real local NATS server (deploy/local/nats.sh start). */
class NatsDriverTest implements DriverFileRefusalContract {

  private static final int MESSAGES = 2_000;

  /** Every round trip here: {@link #MESSAGES} through a new topic, within 30 s. */
  private static final DriverRoundTrip.Plan ROUND_TRIP = DriverRoundTrip.Plan.of(MESSAGES, 30);

  private static final String URL = LocalNats.URL;

  // JUnit closes it after the last test; it stays null when no server answered.
  @AutoClose private static Connection admin;
  private static JetStreamManagement jsm;

  @BeforeAll
  static void serverIsUp() throws Exception {
    // An independent connection reads the broker's state back, not through the driver.
    admin = LocalNats.admin();
    jsm = admin.jetStreamManagement();
  }

  private static StreamConfiguration streamOnServer(String topic) throws Exception {
    return jsm.getStreamInfo(Subjects.name(topic)).getConfiguration();
  }

  /** The server has no stream for {@code topic}: it answers "stream not found" (10059). */
  private static void assertNoStream(String topic) {
    JetStreamApiException e =
        assertThrows(JetStreamApiException.class, () -> streamOnServer(topic));
    assertEquals(10059, e.getApiErrorCode(), e.getMessage());
  }

  @Test
  void coreDeliversEveryMessageToEachSubscriptionAndKeepsNoStream() throws Exception {
    try (NatsBenchmarkDriver driver = LocalNats.open("nats.yaml")) {
      assertEquals(NatsDriverConfig.Mode.CORE, driver.config().mode());
      assertEquals("core", driver.brokerFacts().get("nats.mode"));
      DriverRoundTrip.Result r =
          DriverRoundTrip.run(
              driver,
              ROUND_TRIP.checking(
                  // Core NATS persists nothing: no stream captures the topic's subjects.
                  NatsDriverTest::assertNoStream));
      r.assertSharedBetweenMembers();
    }
  }

  @Test
  void jetStreamFileStoresOnDiskAndDeliversExactlyOnce() throws Exception {
    jetStreamRoundTrip("nats-jetstream.yaml", StorageType.File);
  }

  @Test
  void jetStreamMemoryStoresInMemoryAndDeliversExactlyOnce() throws Exception {
    jetStreamRoundTrip("nats-jetstream-memory.yaml", StorageType.Memory);
  }

  @Test
  void jetStreamPushConsumersShareADeliverGroup() throws Exception {
    try (NatsBenchmarkDriver driver =
        DriverFiles.open(
            () -> new NatsBenchmarkDriver(),
            Path.of("nats-jetstream-memory.yaml"),
            withPort("consumerType", "push"))) {
      assertEquals(NatsDriverConfig.ConsumerType.PUSH, driver.config().consumerType());
      DriverRoundTrip.Result r =
          DriverRoundTrip.run(
              driver,
              ROUND_TRIP.checking(
                  topic ->
                      assertEquals(StorageType.Memory, streamOnServer(topic).getStorageType())));
      r.assertSharedBetweenMembers();
    }
  }

  private static Map<String, String> withPort(String key, String value) {
    var m = new java.util.HashMap<>(LocalNats.overrides());
    m.put(key, value);
    return m;
  }

  private static void jetStreamRoundTrip(String file, StorageType storage) throws Exception {
    try (NatsBenchmarkDriver driver = LocalNats.open(file)) {
      DriverRoundTrip.Result r =
          DriverRoundTrip.run(
              driver,
              ROUND_TRIP.checking(
                  topic -> {
                    StreamConfiguration c = streamOnServer(topic);
                    assertEquals(storage, c.getStorageType(), "storage type on the server");
                    assertEquals(1, c.getReplicas(), "replicas on the server");
                    assertEquals(
                        MESSAGES,
                        jsm.getStreamInfo(Subjects.name(topic)).getStreamState().getMsgCount(),
                        "messages stored in the stream");
                    assertEquals(
                        storage == StorageType.File ? "file" : "memory",
                        driver
                            .brokerFacts()
                            .get("nats.stream." + Subjects.name(topic) + ".storage"));
                  }));
      r.assertSharedBetweenMembers();
      // deleteTopics removed the stream.
      assertNoStream(r.topic());
    }
  }

  @Test
  void ombDriverFileRunsUnchangedAsJetStream() throws Exception {
    try (NatsBenchmarkDriver driver = LocalNats.open("src/test/resources/omb-nats.yaml")) {
      assertEquals(
          "localhost:4222".equals(driver.config().natsHostUrl())
              || !LocalNats.overrides().isEmpty(),
          true);
      assertEquals(NatsDriverConfig.Mode.JETSTREAM, driver.config().mode());
      assertEquals(1, driver.config().replicationFactor());
      DriverRoundTrip.run(
          driver,
          ROUND_TRIP.checking(
              topic -> assertEquals(StorageType.File, streamOnServer(topic).getStorageType())));
    }
    // The framework finds the driver by OMB's class name.
    OmbDriverClass.assertAliasedAndListed(
        NatsBenchmarkDriver.class, "io.openmessaging.benchmark.driver.nats.NatsBenchmarkDriver");
  }

  @Override
  public NatsBenchmarkDriver newDriver() {
    return new NatsBenchmarkDriver();
  }

  @Test
  void commandLineBeatsEnvironmentWhichBeatsFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("nats.yaml");
    Files.writeString(file, "mode: core\nnatsHostUrl: nats://127.0.0.1:1\n");
    // The file's URL is unreachable; the environment fixes it.
    try (NatsBenchmarkDriver driver = new NatsBenchmarkDriver()) {
      driver.initialize(DriverSettingsReader.config(file, Map.of(), Map.of("NATS_URL", URL)));
      assertEquals(URL, driver.config().natsHostUrl());
      assertEquals(URL, driver.brokerFacts().get("nats.url"));
    }
    // The environment is unreachable; --driver-set fixes it.
    try (NatsBenchmarkDriver driver = new NatsBenchmarkDriver()) {
      driver.initialize(
          DriverSettingsReader.config(
              file, Map.of("natsHostUrl", URL), Map.of("NATS_URL", "nats://127.0.0.1:2")));
      assertEquals(URL, driver.config().natsHostUrl());
    }
    String refusal = refusalOf(file, Map.of("bootstrap.servers", "x"));
    assertTrue(
        refusal.startsWith("--driver-set bootstrap.servers=x: unknown field 'bootstrap.servers'"),
        refusal);
    refusal = refusalOf(file, Map.of("maxAckPending", "lots"));
    assertTrue(
        refusal.startsWith("--driver-set maxAckPending=lots: expected a whole number"), refusal);
  }
}
