package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OpenMessaging Benchmark's two Pulsar driver files, byte for byte as OMB ships them (admin service
 * on localhost:8080, cluster 'local', ensembles of 3), run with no override against the 3-bookie
 * cluster of {@code deploy/local/pulsar.sh start --nodes 3}: a user switching from OMB keeps the
 * files.
 */
class PulsarOmbFilesClusterTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"pulsar.yaml", "pulsar-effectively-once.yaml"})
  void runsUnchangedWithNothingLost(String file) {
    RunReport report = RUN.run(Path.of("src/test/resources/omb", file), Map.of(), scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals("3", facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals("local", facts.get("pulsar.cluster"), facts.toString());
  }
}
