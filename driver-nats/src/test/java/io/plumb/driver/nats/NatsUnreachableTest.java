package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.cli.CommandLineRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class NatsUnreachableTest {
  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut(@TempDir Path dir) {
    String address = "127.0.0.1:" + CommandLineRun.unusedPort();
    CommandLineRun run = CommandLineRun.tinyRun(dir, "nats.yaml", "natsHostUrl=nats://" + address);
    assertEquals(
        List.of(),
        run.unreachableBrokerProblems("nats.yaml", address, "deploy/local/nats.sh start"));
  }
}
