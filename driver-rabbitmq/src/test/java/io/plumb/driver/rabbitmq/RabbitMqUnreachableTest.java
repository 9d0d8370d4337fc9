package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.cli.CommandLineRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class RabbitMqUnreachableTest {
  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut(@TempDir Path dir) {
    String address = "127.0.0.1:" + CommandLineRun.unusedPort();
    CommandLineRun run =
        CommandLineRun.tinyRun(dir, "rabbitmq.yaml", "amqpUris=amqp://guest:guest@" + address);
    assertEquals(
        List.of(),
        run.unreachableBrokerProblems("rabbitmq.yaml", address, "deploy/local/rabbitmq.sh start"));
  }
}
