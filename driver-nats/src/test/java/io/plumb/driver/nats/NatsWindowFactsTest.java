package io.plumb.driver.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against the local server: a run's result names the windows its clients ran with. */
class NatsWindowFactsTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @Test
  void theResultCarriesTheWindowsAsOverridden() {
    RunReport report =
        RUN.run(
            Path.of("nats-jetstream.yaml"),
            Map.of("maxOutstandingPublishes", "64", "pullBatchSize", "32"),
            scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("64", facts.get(BrokerFactNames.SEND_WINDOW), facts.toString());
    assertEquals("32", facts.get(BrokerFactNames.RECEIVE_WINDOW), facts.toString());
  }
}
