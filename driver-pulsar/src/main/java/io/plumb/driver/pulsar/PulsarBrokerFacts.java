package io.plumb.driver.pulsar;

import io.plumb.driver.BrokerFactNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.common.policies.data.PersistentTopicInternalStats;

/**
 * The facts the driver reports: what the broker said at initialize ({@link PulsarCluster}, {@link
 * PulsarNamespace}), and once topics exist the replication of their ledgers, read back from the
 * broker, never taken from the file.
 */
final class PulsarBrokerFacts {
  /** How long reading the run's ledgers back may take (loading a topic creates its ledger). */
  private static final long LEDGER_READ_TIMEOUT_SECONDS = 60;

  private final PulsarAdmin admin;
  private final TopicType topicType;
  private final Map<String, String> facts = new LinkedHashMap<>();

  PulsarBrokerFacts(PulsarAdmin admin, TopicType topicType) {
    this.admin = admin;
    this.topicType = topicType;
  }

  /** Records a fact read at initialize. */
  void put(String name, String value) {
    facts.put(name, value);
  }

  String get(String name) {
    return facts.get(name);
  }

  /**
   * The facts read at initialize, with the ledger facts of {@code createdTopics} once any exist.
   */
  Map<String, String> read(Map<String, Integer> createdTopics) {
    Map<String, String> all = new LinkedHashMap<>(facts);
    if (!createdTopics.isEmpty()) {
      all.putAll(ledgerFacts(createdTopics));
    }
    return Map.copyOf(all);
  }

  private Map<String, String> ledgerFacts(Map<String, Integer> createdTopics) {
    Map<String, String> read = new LinkedHashMap<>();
    if (topicType == TopicType.NON_PERSISTENT) {
      read.put(BrokerFactNames.REPLICAS, "0");
      read.put(BrokerFactNames.REPLICA_NODES, "");
      read.put("pulsar.ledgers", "none: non-persistent topics are not stored");
      return read;
    }
    List<String> partitions = new ArrayList<>();
    createdTopics.forEach(
        (topic, count) -> {
          for (int i = 0; i < count; i++) {
            partitions.add(topic + "-partition-" + i);
          }
        });
    List<CompletableFuture<PersistentTopicInternalStats>> stats =
        partitions.stream().map(p -> admin.topics().getInternalStatsAsync(p, true)).toList();
    List<LedgerReplication> ledgers = new ArrayList<>();
    try {
      CompletableFuture.allOf(stats.toArray(CompletableFuture[]::new))
          .get(LEDGER_READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      for (int i = 0; i < partitions.size(); i++) {
        Optional<LedgerReplication> current = LedgerReplication.currentLedger(stats.get(i).join());
        if (current.isEmpty()) {
          read.put("pulsar.ledgers", "not read: " + partitions.get(i) + " reports no open ledger");
          return read;
        }
        ledgers.add(current.get());
      }
    } catch (ExecutionException | TimeoutException e) {
      read.put("pulsar.ledgers", "not read: " + Causes.rootMessage(e));
      return read;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      read.put("pulsar.ledgers", "not read: interrupted");
      return read;
    }
    read.put(
        BrokerFactNames.REPLICAS,
        String.valueOf(
            ledgers.stream().mapToInt(LedgerReplication::writeQuorum).min().orElseThrow()));
    read.put(
        BrokerFactNames.REPLICA_NODES,
        ledgers.stream()
            .flatMap(l -> l.bookies().stream())
            .collect(Collectors.toCollection(TreeSet::new))
            .stream()
            .collect(Collectors.joining(",")));
    read.put("pulsar.ledgers", LedgerReplication.describe(ledgers));
    return read;
  }
}
