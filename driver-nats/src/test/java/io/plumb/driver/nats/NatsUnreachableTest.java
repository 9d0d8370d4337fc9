package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.cli.CommandLineRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No broker at the address given: one line, exit status 3, as for every driver. */
class NatsUnreachableTest {
  @TempDir Path dir;

  @Test
  void noBrokerAtTheAddressIsOneLineNamingItAndTheWayOut() {
    int port = CommandLineRun.unusedPort();
    CommandLineRun run =
        CommandLineRun.tinyRun(dir, "nats.yaml", "natsHostUrl=nats://127.0.0.1:" + port);
    assertEquals(3, run.status(), run.out() + run.err());
    assertEquals(1, run.errorLines().size(), run.err());
    String line = run.errorLines().get(0);
    assertTrue(line.startsWith("error: nats.yaml: "), line);
    assertTrue(line.contains("127.0.0.1:" + port), line);
    assertTrue(line.contains("start the local one with deploy/local/nats.sh start"), line);
  }
}
