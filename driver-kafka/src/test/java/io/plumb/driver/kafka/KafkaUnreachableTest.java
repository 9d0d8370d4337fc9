package io.plumb.driver.kafka;

import io.plumb.testkit.UnreachableBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class KafkaUnreachableTest {
  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut(@TempDir Path dir) {
    UnreachableBroker.assertReported(
        dir,
        "kafka.yaml",
        port -> "bootstrap.servers=127.0.0.1:" + port,
        "deploy/local/kafka.sh start");
  }
}
