package io.plumb.driver.pulsar;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.pulsar.common.policies.data.ManagedLedgerInternalStats.LedgerInfo;
import org.apache.pulsar.common.policies.data.PersistentTopicInternalStats;

/**
 * The replication of one BookKeeper ledger as the broker reports it: the ledger metadata text of
 * the admin API's internal stats ({@code getInternalStats(topic, true)}), e.g. {@code
 * LedgerMetadata{formatVersion=3, ensembleSize=3, writeQuorumSize=3, ackQuorumSize=2, state=OPEN,
 * ..., ensembles={0=[127.0.0.1:3181, 127.0.0.1:3182, 127.0.0.1:3183]}, ...}}.
 *
 * @param ensembleSize bookies the ledger's entries are striped over
 * @param writeQuorum copies written of each entry
 * @param ackQuorum copies acknowledged before a write completes
 * @param bookies every bookie of every ensemble of the ledger (an ensemble changes when a bookie
 *     fails during a write), as BookKeeper names them
 * @param lastEnsemble the ensemble new entries go to: the last one, in BookKeeper's order
 */
record LedgerReplication(
    int ensembleSize,
    int writeQuorum,
    int ackQuorum,
    Set<String> bookies,
    List<String> lastEnsemble) {

  private static final Pattern SIZES =
      Pattern.compile("ensembleSize=(\\d+), writeQuorumSize=(\\d+), ackQuorumSize=(\\d+)");
  private static final Pattern ENSEMBLES = Pattern.compile("ensembles=\\{([^}]*)}");
  private static final Pattern ENSEMBLE = Pattern.compile("\\[([^]]*)]");

  /** Reads the metadata text; empty when it does not have the fields above. */
  static Optional<LedgerReplication> parse(String metadata) {
    if (metadata == null) {
      return Optional.empty();
    }
    Matcher sizes = SIZES.matcher(metadata);
    Matcher ensembles = ENSEMBLES.matcher(metadata);
    if (!sizes.find() || !ensembles.find()) {
      return Optional.empty();
    }
    Set<String> bookies = new TreeSet<>();
    List<String> last = List.of();
    // Ensembles are keyed by their first entry id, in ascending order: the last one is current.
    Matcher ensemble = ENSEMBLE.matcher(ensembles.group(1));
    while (ensemble.find()) {
      List<String> members = new ArrayList<>();
      for (String bookie : ensemble.group(1).split(",")) {
        if (!bookie.isBlank()) {
          members.add(bookie.strip());
        }
      }
      if (!members.isEmpty()) {
        bookies.addAll(members);
        last = List.copyOf(members);
      }
    }
    if (bookies.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new LedgerReplication(
            Integer.parseInt(sizes.group(1)),
            Integer.parseInt(sizes.group(2)),
            Integer.parseInt(sizes.group(3)),
            Set.copyOf(bookies),
            last));
  }

  /** The last ledger of a partition is the one it writes to. */
  static Optional<LedgerReplication> currentLedger(PersistentTopicInternalStats stats) {
    List<LedgerInfo> ledgers = stats.ledgers;
    if (ledgers == null || ledgers.isEmpty()) {
      return Optional.empty();
    }
    return parse(ledgers.get(ledgers.size() - 1).metadata);
  }

  /** The first bookie of the current ensemble, the one {@link PulsarLeaders#bookieOf} names. */
  String firstBookie() {
    return lastEnsemble.get(0);
  }

  /** {@code ensemble=3 writeQuorum=3 ackQuorum=2}. */
  String quorums() {
    return "ensemble=" + ensembleSize + " writeQuorum=" + writeQuorum + " ackQuorum=" + ackQuorum;
  }

  /**
   * One line over the current ledgers of several partitions, e.g. {@code ensemble=3 writeQuorum=3
   * ackQuorum=2 (current ledger of 3 of 3 partitions)}, each distinct setting with its count.
   */
  static String describe(Collection<LedgerReplication> ledgers) {
    Map<String, Long> counts =
        new TreeMap<>(
            ledgers.stream()
                .collect(Collectors.groupingBy(LedgerReplication::quorums, Collectors.counting())));
    return counts.entrySet().stream()
        .map(
            e ->
                e.getKey()
                    + " (current ledger of "
                    + e.getValue()
                    + " of "
                    + ledgers.size()
                    + " partitions)")
        .collect(Collectors.joining("; "));
  }
}
