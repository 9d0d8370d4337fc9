package io.plumb.driver.pulsar;

import io.plumb.testkit.UnreachableBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class PulsarUnreachableTest {
  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut(@TempDir Path dir) {
    UnreachableBroker.assertReported(
        dir,
        "pulsar.yaml",
        port -> "client.httpUrl=http://127.0.0.1:" + port,
        "deploy/local/pulsar.sh start");
  }
}
