package io.plumb.driver.rabbitmq;

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
 * Each shipped single-node driver file, run through the whole engine against the local broker:
 * keyed load over 3 partitions, two subscriptions of two consumers, every message acknowledged and
 * received exactly once by each subscription; and the result records the one node and the one copy
 * the broker itself reports.
 */
class RabbitMqBenchmarkRunTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "rabbitmq.yaml",
        "rabbitmq-durable.yaml",
        "rabbitmq-quorum.yaml",
        "rabbitmq-stream.yaml",
        "rabbitmq-stream-protocol.yaml"
      })
  void shippedFileDeliversEveryMessageThroughTheEngine(String file) throws Exception {
    RunReport report = RUN.run(Path.of(file), Map.of(), scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    String node = Broker.runningNodes().get(0);
    assertEquals("1", facts.get(BrokerFactNames.NODES), facts.toString());
    assertEquals("1", facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals(node, facts.get(BrokerFactNames.REPLICA_NODES), facts.toString());
    assertEquals(node, facts.get("rabbitmq.leaders"), facts.toString());
    assertEquals(
        Broker.overview().path("rabbitmq_version").asText(),
        facts.get(BrokerFactNames.BROKER_VERSION));
  }
}
