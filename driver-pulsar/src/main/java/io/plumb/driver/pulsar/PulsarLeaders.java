package io.plumb.driver.pulsar;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.common.policies.data.PersistentTopicInternalStats;

/**
 * The nodes a fault can aim at for a topic, asked of the broker when the fault is applied: the
 * broker that owns it and a bookie of its current ledger.
 */
record PulsarLeaders(PulsarAdmin admin, TopicType topicType, PulsarTopics topics) {
  /**
   * How long one {@link #locate} question may take: a fault is aimed within seconds, and the
   * framework asks again (up to 10 s) when there is no answer.
   */
  private static final long LEADER_READ_TIMEOUT_SECONDS = 5;

  /**
   * The roles a fault can aim at. BookKeeper has no leader: what orders a topic's writes is the
   * broker that owns it, so {@code leader} is that broker ({@code broker-owner}, its plain name);
   * {@code bookie} is a bookie writing the current ledger. No {@code followers}: the bookies do not
   * follow the broker.
   */
  static Map<String, String> targets() {
    String owner = "broker that owns the topic (partition 0)";
    return Map.of(
        "leader", owner,
        "broker-owner", owner,
        "bookie", "first bookie of the current ledger's ensemble (partition 0)");
  }

  Optional<String> locate(String target, String topic) throws Exception {
    return switch (target) {
      case "leader", "broker-owner" -> Optional.of(ownerOf(topic));
      case "bookie" -> bookieOf(topic);
      default -> throw new IllegalArgumentException("this driver names no " + target);
    };
  }

  /**
   * The broker that owns partition 0 of {@code topic} now, as host:port of its binary protocol,
   * from the admin API's topic lookup ({@code pulsar://127.0.0.1:6650} becomes {@code
   * 127.0.0.1:6650}).
   */
  String ownerOf(String topic) throws Exception {
    String url =
        admin
            .lookups()
            .lookupTopicAsync(partitionZero(topic))
            .get(LEADER_READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    return url.replaceFirst("^[a-z+]+://", "").replaceFirst("/.*$", "");
  }

  /**
   * A bookie holding partition 0 of {@code topic} now: the first bookie of the last ensemble of its
   * current ledger, from the broker's internal stats with ledger metadata. After a bookie of the
   * ensemble fails during a write, the broker replaces it (a new ensemble in the same ledger) or
   * rolls over to a new ledger, and the answer follows. Empty for non-persistent topics (no
   * ledgers) and while the partition has no ledger.
   */
  Optional<String> bookieOf(String topic) throws Exception {
    if (topicType == TopicType.NON_PERSISTENT) {
      return Optional.empty();
    }
    PersistentTopicInternalStats stats =
        admin
            .topics()
            .getInternalStatsAsync(partitionZero(topic), true)
            .get(LEADER_READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    return LedgerReplication.currentLedger(stats).map(LedgerReplication::firstBookie);
  }

  /** Partition 0 of a partitioned topic, or the topic itself when it has no partitions. */
  private String partitionZero(String topic) throws Exception {
    return topics.partitions(topic, Duration.ofSeconds(LEADER_READ_TIMEOUT_SECONDS)) > 0
        ? topic + "-partition-0"
        : topic;
  }
}
