package io.plumb.driver.nats;

import io.plumb.testkit.WindowFacts;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against the local server: a run's result names the windows its clients ran with. */
class NatsWindowFactsTest {
  @TempDir Path scratch;

  @Test
  void theResultCarriesTheWindowsAsOverridden() {
    WindowFacts.assertReported(
        Path.of("nats-jetstream.yaml"),
        Map.of("maxOutstandingPublishes", "64", "pullBatchSize", "32"),
        scratch,
        "64",
        "32");
  }
}
