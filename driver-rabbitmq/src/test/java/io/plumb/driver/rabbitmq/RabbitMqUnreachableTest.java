package io.plumb.driver.rabbitmq;

import io.plumb.testkit.UnreachableBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class RabbitMqUnreachableTest {
  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut(@TempDir Path dir) {
    UnreachableBroker.assertReported(
        dir,
        "rabbitmq.yaml",
        port -> "amqpUris=amqp://guest:guest@127.0.0.1:" + port,
        "deploy/local/rabbitmq.sh start");
  }
}
