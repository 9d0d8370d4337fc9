package io.plumb.driver.nats;

import io.nats.client.Connection;
import io.nats.client.Nats;
import io.plumb.testkit.BrokerPort;
import io.plumb.testkit.DriverFiles;
import java.nio.file.Path;
import java.util.Map;

/**
 * The single local server the default tests run against ({@code deploy/local/nats.sh start}), on
 * the port {@code PLUMB_NATS_PORT} names, 4222 (the shipped files' port) by default.
 */
final class LocalNats {
  static final String PORT = System.getenv().getOrDefault("PLUMB_NATS_PORT", "4222");
  static final String URL = "nats://127.0.0.1:" + PORT;

  /** OpenMessaging Benchmark's NATS file, which asks for 3 stream replicas. */
  static final String OMB_FILE_THREE_REPLICAS =
      "name: NATS\n"
          + "driverClass: io.openmessaging.benchmark.driver.nats.NatsBenchmarkDriver\n"
          + "natsHostUrl: localhost:4222\n"
          + "replicationFactor: 3\n";

  private LocalNats() {}

  /** Fails the test in one line naming the start command when no server listens. */
  static void assertUp() {
    BrokerPort.assertListening("NATS server", Integer.parseInt(PORT), "deploy/local/nats.sh start");
  }

  /**
   * A connection of its own, which reads the server's state back apart from the driver; fails in
   * one line naming the start command when no server listens.
   */
  static Connection admin() throws Exception {
    assertUp();
    return Nats.connect(URL);
  }

  /** The --driver-set that points a shipped file at the server: none on the files' own port. */
  static Map<String, String> overrides() {
    return PORT.equals("4222") ? Map.of() : Map.of("natsHostUrl", URL);
  }

  /** A driver initialized from the shipped {@code file}, pointed at the server. */
  static NatsBenchmarkDriver open(String file) throws Exception {
    return DriverFiles.open(() -> new NatsBenchmarkDriver(), Path.of(file), overrides());
  }
}
