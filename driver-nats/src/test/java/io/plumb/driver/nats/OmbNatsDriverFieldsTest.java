package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.DriverFiles;
import io.plumb.testkit.OmbDriverFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenMessaging Benchmark's NATS driver file, field by field: each lands where OMB's {@code
 * NatsBenchmarkDriver} puts it, checked up to the driver's settings (the JetStream streams they
 * configure need a server: NatsDriverTest). The file mirrors OMB's {@code driver-nats/nats.yaml};
 * {@code storageType} and {@code maxBytes} are fields of OMB's {@code NatsConfig} that its file
 * leaves out.
 */
class OmbNatsDriverFieldsTest {
  private static final String OMB_FILE =
      """
      name: NATS
      driverClass: io.openmessaging.benchmark.driver.nats.NatsBenchmarkDriver

      natsHostUrl: localhost:4222

      replicationFactor: 3
      """;

  @TempDir Path dir;

  private OmbDriverFile<NatsDriverConfig> omb;
  private NatsDriverConfig config;

  @BeforeEach
  void read() throws IOException, DriverConfigException {
    omb =
        OmbDriverFile.write(
            dir, "nats.yaml", OMB_FILE, fields -> NatsDriverConfig.read(fields, Map.of()));
    config = omb.settings();
  }

  @Test
  void nameAndDriverClass() {
    DriverFiles.assertLoadsAs(omb.file(), "NATS", NatsBenchmarkDriver.class);
  }

  /** OMB: the server the client connects to, {@code host:port} as jnats accepts it. */
  @Test
  void natsHostUrl() {
    assertEquals("localhost:4222", config.natsHostUrl());
    assertArrayEquals(new String[] {"nats://localhost:4222"}, config.servers());
  }

  /** OMB: the replicas of each topic's JetStream stream (OMB always uses JetStream). */
  @Test
  void replicationFactor() {
    assertEquals(3, config.replicationFactor());
    assertEquals(NatsDriverConfig.Mode.JETSTREAM, config.mode());
  }

  /**
   * OMB: the streams' storage, File (OMB's default) or Memory, as jnats's StorageType spells it.
   */
  @Test
  void storageType() throws IOException, DriverConfigException {
    assertEquals(NatsDriverConfig.Storage.FILE, config.storageType());
    assertEquals(
        NatsDriverConfig.Storage.MEMORY,
        omb.variant(OMB_FILE + "storageType: Memory\n").storageType());
    assertEquals(
        NatsDriverConfig.Storage.FILE, omb.variant(OMB_FILE + "storageType: File\n").storageType());
  }

  /** OMB: each stream's size limit in bytes, -1 (OMB's default) for none. */
  @Test
  void maxBytes() throws IOException, DriverConfigException {
    assertEquals(-1L, config.maxBytes());
    assertEquals(1_073_741_824L, omb.variant(OMB_FILE + "maxBytes: 1073741824\n").maxBytes());
  }
}
