package io.plumb.driver.nats;

import io.plumb.testkit.UnreachableBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class NatsUnreachableTest {
  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut(@TempDir Path dir) {
    UnreachableBroker.assertReported(
        dir,
        "nats.yaml",
        port -> "natsHostUrl=nats://127.0.0.1:" + port,
        "deploy/local/nats.sh start");
  }
}
