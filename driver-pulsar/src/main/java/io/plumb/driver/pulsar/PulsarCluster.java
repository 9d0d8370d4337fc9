package io.plumb.driver.pulsar;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.util.List;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.admin.PulsarAdminException;
import org.apache.pulsar.common.policies.data.RawBookieInfo;

/**
 * The cluster as it is before anything is created: the broker's version, its brokers and bookies
 * (registered with its metadata store) and their journal sync, recorded as broker facts; a file the
 * cluster cannot serve is refused here, in one line, before any load.
 */
final class PulsarCluster {
  private final PulsarAdmin admin;
  private final PulsarClientSettings client;
  private final PulsarBrokerFacts facts;

  /** The bookies registered with the cluster, as BookKeeper names them, read at initialize. */
  private List<String> bookies = List.of();

  PulsarCluster(PulsarAdmin admin, PulsarClientSettings client, PulsarBrokerFacts facts) {
    this.admin = admin;
    this.client = client;
    this.facts = facts;
  }

  /**
   * The broker's version, its cluster's brokers and bookies. The first admin call also tells a
   * wrong {@code httpUrl} apart from other failures, in one line.
   */
  void read(DriverSettings clientSection) throws Exception {
    String httpUrl = client.httpUrl();
    try {
      facts.put(BrokerFactNames.BROKER_VERSION, admin.brokers().getVersion());
    } catch (PulsarAdminException e) {
      if (Causes.hasCause(e, ConnectException.class)) {
        throw new BrokerUnreachableException(
            clientSection.file(),
            "Pulsar's admin service",
            httpUrl,
            Causes.rootMessage(e),
            "deploy/local/pulsar.sh start",
            "--driver-set client.httpUrl=http://HOST:PORT and client.serviceUrl=pulsar://HOST:PORT,"
                + " or PULSAR_HTTP_URL and PULSAR_SERVICE_URL");
      }
      throw e;
    }
    String cluster = name(admin, client);
    facts.put("pulsar.brokers", String.valueOf(admin.brokers().getActiveBrokers(cluster).size()));
    bookies =
        admin.bookies().getBookies().getBookies().stream()
            .map(RawBookieInfo::getBookieId)
            .sorted()
            .toList();
    facts.put(BrokerFactNames.NODES, String.valueOf(bookies.size()));
    facts.put("pulsar.bookies", String.join(",", bookies));
  }

  /**
   * A ledger needs {@code ensembleSize} distinct bookies: with fewer, every topic load fails and a
   * subscribe waits for its timeout (100 s) before the run fails. Refused here instead, in one
   * line. Non-persistent topics have no ledgers.
   */
  void refuseMoreCopiesThanBookies(DriverSettings persistenceSection) throws DriverConfigException {
    PulsarClientSettings.Persistence p = client.persistence();
    int bookies = Integer.parseInt(facts.get(BrokerFactNames.NODES));
    if (client.topicType() == TopicType.PERSISTENT && p.ensembleSize() > bookies) {
      // OMB's default applies to a file that leaves the field out: say so, or the user looks for
      // a number they never wrote.
      boolean byDefault = !persistenceSection.has("ensembleSize");
      throw persistenceSection.error(
          "ensembleSize",
          (byDefault ? "not in the file, so OMB's default " + p.ensembleSize() + ", which " : "")
              + "asks for ledgers on "
              + p.ensembleSize()
              + " bookies ("
              + p.writeQuorum()
              + " copies of each entry) but the Pulsar cluster at "
              + client.httpUrl()
              + " has "
              + bookies
              + (bookies == 1 ? " bookie" : " bookies")
              + " (start 3: deploy/local/pulsar.sh start --nodes 3"
              + (byDefault ? "; or set ensembleSize, writeQuorum and ackQuorum to " + bookies : "")
              + ")");
    }
  }

  /**
   * Records the bookies' journalSyncData as each reports it ({@value BookieJournalSync#FACT}), and
   * refuses a file whose {@code expectJournalSync} not every registered bookie has, with one line,
   * before anything is created: a run meant to show what the journal's fsync buys must not run on
   * bookies that do otherwise. Without {@code bookieHttpUrls} the fact says it was not read.
   *
   * @throws DriverConfigException the refusal, the only one thrown; the caller closes its clients
   *     before passing it on
   */
  void readJournalSync(DriverSettings clientSection) throws Exception {
    List<URI> endpoints = client.bookieEndpoints();
    if (endpoints.isEmpty()) {
      facts.put(
          BookieJournalSync.FACT,
          "not read (client.bookieHttpUrls names no bookie HTTP server to ask)");
      return;
    }
    List<BookieJournalSync.Reading> readings;
    try {
      readings = BookieJournalSync.read(endpoints);
    } catch (IOException e) {
      facts.put(BookieJournalSync.FACT, "not read (" + e.getMessage() + ")");
      if (client.expectJournalSync() != null) {
        throw clientSection.error(
            "expectJournalSync",
            "expects journalSyncData "
                + client.expectJournalSync()
                + " but the bookies' setting could not be read: "
                + e.getMessage()
                + " (client.bookieHttpUrls names the bookies' HTTP servers)");
      }
      return;
    }
    facts.put(BookieJournalSync.FACT, BookieJournalSync.describe(readings, bookies));
    Boolean expected = client.expectJournalSync();
    if (expected == null || BookieJournalSync.allAre(readings, bookies, expected)) {
      return;
    }
    throw clientSection.error(
        "expectJournalSync",
        "expects journalSyncData "
            + expected
            + " but the bookies report "
            + BookieJournalSync.describe(readings, bookies)
            + " (start them with: deploy/local/pulsar.sh start --nodes 3 --journal-sync "
            + expected
            + ")");
  }

  /** The file's {@code clusterName}, or else the first cluster the broker lists. */
  static String name(PulsarAdmin admin, PulsarClientSettings client) throws PulsarAdminException {
    String cluster = client.clusterName();
    return cluster == null || cluster.isBlank() ? admin.clusters().getClusters().get(0) : cluster;
  }
}
