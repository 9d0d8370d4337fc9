package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.DriverConfigException;
import io.plumb.testkit.OmbDriverFieldsContract;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * OpenMessaging Benchmark's NATS driver file, field by field: each lands where OMB's {@code
 * NatsBenchmarkDriver} puts it, checked up to the driver's settings (the JetStream streams they
 * configure need a server: NatsDriverTest). The file mirrors OMB's {@code driver-nats/nats.yaml};
 * {@code storageType} and {@code maxBytes} are fields of OMB's {@code NatsConfig} that its file
 * leaves out.
 */
class OmbNatsDriverFieldsTest extends OmbDriverFieldsContract<NatsDriverConfig> {
  private static final String OMB_FILE =
      """
      name: NATS
      driverClass: io.openmessaging.benchmark.driver.nats.NatsBenchmarkDriver

      natsHostUrl: localhost:4222

      replicationFactor: 3
      """;

  OmbNatsDriverFieldsTest() {
    super(
        "nats.yaml",
        OMB_FILE,
        fields -> NatsDriverConfig.read(fields, Map.of()),
        "NATS",
        NatsBenchmarkDriver.class);
  }

  /** OMB: the server the client connects to, {@code host:port} as jnats accepts it. */
  @Test
  void natsHostUrl() {
    assertEquals("localhost:4222", settings().natsHostUrl());
    assertArrayEquals(new String[] {"nats://localhost:4222"}, settings().servers());
  }

  /** OMB: the replicas of each topic's JetStream stream (OMB always uses JetStream). */
  @Test
  void replicationFactor() {
    assertEquals(3, settings().replicationFactor());
    assertEquals(NatsDriverConfig.Mode.JETSTREAM, settings().mode());
  }

  /**
   * OMB: the streams' storage, File (OMB's default) or Memory, as jnats's StorageType spells it.
   */
  @Test
  void storageType() throws IOException, DriverConfigException {
    assertEquals(NatsDriverConfig.Storage.FILE, settings().storageType());
    assertEquals(
        NatsDriverConfig.Storage.MEMORY, variant(OMB_FILE + "storageType: Memory\n").storageType());
    assertEquals(
        NatsDriverConfig.Storage.FILE, variant(OMB_FILE + "storageType: File\n").storageType());
  }

  /** OMB: each stream's size limit in bytes, -1 (OMB's default) for none. */
  @Test
  void maxBytes() throws IOException, DriverConfigException {
    assertEquals(-1L, settings().maxBytes());
    assertEquals(1_073_741_824L, variant(OMB_FILE + "maxBytes: 1073741824\n").maxBytes());
  }
}
