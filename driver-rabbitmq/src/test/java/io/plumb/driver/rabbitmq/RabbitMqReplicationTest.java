package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.SmokeRun;
import io.plumb.driver.DriverConfigException;
import io.plumb.input.BadInputException;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Replication against the single default node: the replicated files are refused before any load
 * with one line naming the file, the setting and the node count. (RabbitMqBenchmarkRunTest checks
 * that every single-copy file reports the one copy and the one node the broker reports.)
 */
class RabbitMqReplicationTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @BeforeAll
  static void oneNodeRunning() throws Exception {
    Broker.requireReachable(5672);
    Broker.requireReachable(ManagementApi.PORT);
    assertEquals(
        1,
        Broker.runningNodes().size(),
        "these tests need the single default node (deploy/local/rabbitmq.sh start), not a cluster");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "rabbitmq-quorum-replicated.yaml, x-quorum-initial-group-size",
    "rabbitmq-stream-protocol-replicated.yaml, x-initial-cluster-size",
  })
  void replicatedFileIsRefusedOnOneNodeBeforeAnyQueueExists(String file, String argument)
      throws Exception {
    Set<String> queuesBefore = Broker.queueNames();
    Set<String> exchangesBefore = Broker.exchangeNames();

    BadInputException refused =
        assertThrows(BadInputException.class, () -> RUN.run(Path.of(file), Map.of(), scratch));

    assertEquals(
        file
            + ":"
            + lineOf(file, "replicas: 3")
            + ": field 'replicas': asks for 3 copies ("
            + argument
            + ") but the RabbitMQ cluster at 127.0.0.1:15672 has 1 running node (start 3:"
            + " deploy/local/rabbitmq.sh start --nodes 3)",
        refused.getMessage());
    assertFalse(refused.getMessage().contains("\n"));
    // Refused before the driver declared anything, probe queues included.
    assertEquals(queuesBefore, Broker.queueNames());
    assertEquals(exchangesBefore, Broker.exchangeNames());
  }

  /** The 1-based line of the file that reads {@code text}. */
  private static int lineOf(String file, String text) throws Exception {
    List<String> lines = Files.readAllLines(Path.of(file));
    assertTrue(lines.contains(text), file + " has no line '" + text + "'");
    return lines.indexOf(text) + 1;
  }

  @Test
  void replicasFromTheCommandLineAreCheckedAndNamedTheSameWay() {
    DriverConfigException refused =
        assertThrows(
            DriverConfigException.class,
            () ->
                new RabbitMqBenchmarkDriver()
                    .initialize(
                        DriverSettingsReader.config(
                            Path.of("rabbitmq-quorum.yaml"), Map.of("replicas", "2"))));
    assertEquals(
        "--driver-set replicas=2: asks for 2 copies (x-quorum-initial-group-size) but the RabbitMQ"
            + " cluster at 127.0.0.1:15672 has 1 running node (start 2: deploy/local/rabbitmq.sh"
            + " start --nodes 2)",
        refused.getMessage());
  }

  @Test
  void classicQueuesTakeNoReplicas() {
    DriverConfigException refused =
        assertThrows(
            DriverConfigException.class,
            () ->
                new RabbitMqBenchmarkDriver()
                    .initialize(
                        DriverSettingsReader.config(
                            Path.of("rabbitmq-durable.yaml"), Map.of("replicas", "1"))));
    assertEquals(
        "--driver-set replicas=1: a classic queue has one copy, on one node; allowed with"
            + " queueType QUORUM or STREAM",
        refused.getMessage());
  }
}
