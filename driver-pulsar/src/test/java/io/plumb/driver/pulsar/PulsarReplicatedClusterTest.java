package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BrokerFactNames;
import io.plumb.result.RunReport;
import io.plumb.testkit.SmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Against the 3-bookie cluster of {@code deploy/local/pulsar.sh start --nodes 3} (ZooKeeper, three
 * bookies and a broker, each a process of its own): the replicated file and its single-copy twin
 * run through the whole engine, deliver every message exactly once, and the result says how many
 * copies the broker's ledgers really have and on which bookies.
 */
class PulsarReplicatedClusterTest {
  private static final SmokeRun RUN = SmokeRun.standard();

  /** The cluster's bookies, as BookKeeper names them (deploy/local/pulsar.sh's ports). */
  private static final List<String> BOOKIES =
      List.of("127.0.0.1:3181", "127.0.0.1:3182", "127.0.0.1:3183");

  @TempDir Path scratch;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "pulsar-replicated.yaml, 3, ensemble=3 writeQuorum=3 ackQuorum=2",
    "pulsar.yaml, 1, ensemble=1 writeQuorum=1 ackQuorum=1",
  })
  void runsWithNothingLostAndReportsTheLedgersReplication(
      String file, String replicas, String quorums) {
    RunReport report = RUN.run(Path.of(file), Map.of(), scratch);

    assertEquals(List.of(), RUN.deliveryProblems(report));
    Map<String, String> facts = report.brokerFacts();
    assertEquals(replicas, facts.get(BrokerFactNames.REPLICAS), facts.toString());
    assertEquals("3", facts.get(BrokerFactNames.NODES), facts.toString());
    assertEquals(String.join(",", BOOKIES), facts.get("pulsar.bookies"), facts.toString());
    assertEquals("1", facts.get("pulsar.brokers"), facts.toString());
    assertEquals(
        quorums
            + " (current ledger of "
            + RUN.partitions()
            + " of "
            + RUN.partitions()
            + " partitions)",
        facts.get("pulsar.ledgers"));
    List<String> replicaNodes = List.of(facts.get(BrokerFactNames.REPLICA_NODES).split(","));
    assertFalse(facts.get(BrokerFactNames.REPLICA_NODES).isEmpty(), facts.toString());
    if (replicas.equals("3")) {
      assertEquals(BOOKIES, replicaNodes, facts.toString());
    } else {
      // Each partition's one copy is on one of the three bookies.
      assertEquals(true, BOOKIES.containsAll(replicaNodes), facts.toString());
    }
    assertEquals("4.0.7", facts.get(BrokerFactNames.BROKER_VERSION));
    assertEquals("local", facts.get("pulsar.cluster"));
    // Read from each of the three bookies' HTTP servers, which agree (the script starts them alike,
    // with --journal-sync or its default).
    assertTrue(
        List.of("true", "false").contains(facts.get("pulsar.bookies.journalSyncData")),
        facts.toString());
  }
}
