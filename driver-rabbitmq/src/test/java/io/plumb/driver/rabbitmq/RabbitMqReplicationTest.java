package io.plumb.driver.rabbitmq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Replication against the single default node: the replicated files are refused before any load
 * with one line naming the file, the setting and the node count. (RabbitMqBenchmarkRunTest checks
 * that every single-copy file reports the one copy and the one node the broker reports.)
 *
 * <p>Its refusals compare the whole broker's queues, exchanges and policies before and after: run
 * alone, while no other test JVM adds to them.
 */
@Tag("broker-wide")
class RabbitMqReplicationTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  @TempDir Path scratch;

  @BeforeAll
  static void oneNodeRunning() throws Exception {
    Broker.requireReachable(5672, ManagementApi.PORT);
    assertEquals(
        1,
        Broker.runningNodes().size(),
        "these tests need the single default node (deploy/local/rabbitmq.sh start), not a cluster");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "rabbitmq-quorum-replicated.yaml, x-quorum-initial-group-size",
    "rabbitmq-stream-protocol-replicated.yaml, x-initial-cluster-size",
    "rabbitmq-classic-mirrored.yaml, ha-params of a mirroring policy",
  })
  void replicatedFileIsRefusedOnOneNodeBeforeAnyQueueExists(String file, String argument)
      throws Exception {
    Set<String> queuesBefore = Broker.queueNames();
    Set<String> exchangesBefore = Broker.exchangeNames();
    Set<String> policiesBefore = Broker.policyNames();

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
    assertEquals(policiesBefore, Broker.policyNames());
  }

  /** The 1-based line of the file that reads {@code text}. */
  private static int lineOf(String file, String text) throws Exception {
    List<String> lines = Files.readAllLines(Path.of(file));
    assertTrue(lines.contains(text), file + " has no line '" + text + "'");
    return lines.indexOf(text) + 1;
  }

  @Test
  void replicasFromTheCommandLineAreCheckedAndNamedTheSameWay() throws Exception {
    String refused = Broker.refusal("rabbitmq-quorum.yaml", Map.of("replicas", "2"));
    assertEquals(
        "--driver-set replicas=2: asks for 2 copies (x-quorum-initial-group-size) but the RabbitMQ"
            + " cluster at 127.0.0.1:15672 has 1 running node (start 2: deploy/local/rabbitmq.sh"
            + " start --nodes 2)",
        refused);
  }

  @Test
  void classicQueuesTakeNoReplicas() throws Exception {
    String refused = Broker.refusal("rabbitmq-durable.yaml", Map.of("replicas", "1"));
    assertEquals(
        "--driver-set replicas=1: a classic queue has one copy, on one node; allowed with"
            + " queueType QUORUM or STREAM, or with haMode: exactly (classic mirrored queues)",
        refused);
  }

  /** Mirroring on every node of a 1-node cluster would give one copy: refused before any queue. */
  @Test
  void mirroringOnEveryNodeIsRefusedOnOneNode() throws Exception {
    Set<String> policiesBefore = Broker.policyNames();
    String refused = Broker.refusal("rabbitmq-durable.yaml", Map.of("haMode", "all"));
    assertEquals(
        "--driver-set haMode=all: all mirrors each queue on every node, but the RabbitMQ cluster"
            + " at 127.0.0.1:15672 has 1 running node, so each queue would have one copy (start 3:"
            + " deploy/local/rabbitmq.sh start --nodes 3)",
        refused);
    assertEquals(policiesBefore, Broker.policyNames());
  }

  /** Mirroring settings the broker would ignore or reject, each refused naming its field. */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "rabbitmq-durable.yaml|haSyncMode=automatic|--driver-set haSyncMode=automatic: applies to"
            + " mirrored classic queues only; set haMode too",
        "rabbitmq-quorum.yaml|haMode=exactly|--driver-set haMode=exactly: mirrors classic queues"
            + " only, and queueType is QUORUM (quorum queues and streams replicate themselves: set"
            + " replicas)",
        "rabbitmq-durable.yaml|haMode=exactly|rabbitmq-durable.yaml: field 'replicas': is missing;"
            + " haMode exactly needs the number of copies (ha-params), e.g. replicas: 3",
        "rabbitmq-classic-mirrored.yaml|haMode=all|rabbitmq-classic-mirrored.yaml:LINE: field"
            + " 'replicas': is not allowed with haMode all (a copy on every node); use haMode"
            + " exactly to set it",
        "rabbitmq-durable.yaml|haMode=sometimes|--driver-set haMode=sometimes:",
      })
  void mirroringSettingsOutsideWhatTheBrokerTakesAreRefused(
      String file, String override, String message) throws Exception {
    String[] field = override.split("=", 2);
    String refused = Broker.refusal(file, Map.of(field[0], field[1]));
    String expected =
        message.contains("LINE")
            ? message.replace("LINE", String.valueOf(lineOf(file, "replicas: 3")))
            : message;
    assertTrue(refused.startsWith(expected), "expected " + expected + "\n     got " + refused);
    assertFalse(refused.contains("\n"));
  }
}
