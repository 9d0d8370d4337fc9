package io.plumb.driver.pulsar;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * OMB's {@code client} section.
 *
 * @param serviceUrl binary protocol URL
 * @param httpUrl admin (web service) URL
 * @param clientMemoryLimitMB memory the client may hold in pending messages before producers block
 *     (or fail when {@code blockIfQueueFull} is off)
 * @param ioThreads client network threads
 * @param listenerThreads threads running message listeners (a consumer stays on one)
 * @param connectionsPerBroker connections the client opens to each broker
 * @param maxConcurrentLookupRequests concurrent topic lookups
 * @param maxBackoffIntervalMs longest wait between two attempts of a producer or consumer to
 *     reconnect after its connection or its broker failed (the client starts at 100 ms and doubles)
 * @param namespacePrefix {@code tenant/prefix}; the driver creates {@code tenant/prefix-<random>}
 * @param clusterName cluster the namespace lives in (default: the broker's first cluster)
 * @param topicType persistent or non-persistent
 * @param persistence the namespace's BookKeeper replication and deduplication
 * @param retention the namespace's retention of acknowledged messages
 * @param tlsAllowInsecureConnection TLS: accept any server certificate
 * @param tlsEnableHostnameVerification TLS: check the host name
 * @param tlsTrustCertsFilePath TLS: trusted certificates
 * @param authentication client authentication plugin and its parameters
 * @param bookieHttpUrls the bookies' HTTP servers ({@code http://host:port}), where the driver
 *     reads each bookie's journalSyncData back; empty: not read
 * @param expectJournalSync the journalSyncData every bookie of the cluster must report, or null for
 *     any: a run on bookies that sync otherwise is refused before any load
 */
public record PulsarClientSettings(
    String serviceUrl,
    String httpUrl,
    Long clientMemoryLimitMB,
    Integer ioThreads,
    Integer listenerThreads,
    Integer connectionsPerBroker,
    Integer maxConcurrentLookupRequests,
    Long maxBackoffIntervalMs,
    String namespacePrefix,
    String clusterName,
    TopicType topicType,
    Persistence persistence,
    Retention retention,
    Boolean tlsAllowInsecureConnection,
    Boolean tlsEnableHostnameVerification,
    String tlsTrustCertsFilePath,
    Authentication authentication,
    List<String> bookieHttpUrls,
    Boolean expectJournalSync) {

  public PulsarClientSettings {
    serviceUrl = serviceUrl == null ? "pulsar://127.0.0.1:6650" : serviceUrl;
    httpUrl = httpUrl == null ? "http://127.0.0.1:8080" : httpUrl;
    clientMemoryLimitMB = clientMemoryLimitMB == null ? 256L : clientMemoryLimitMB;
    ioThreads = ioThreads == null ? 8 : ioThreads;
    listenerThreads = listenerThreads == null ? 1 : listenerThreads;
    connectionsPerBroker = connectionsPerBroker == null ? 8 : connectionsPerBroker;
    maxConcurrentLookupRequests =
        maxConcurrentLookupRequests == null ? 1000 : maxConcurrentLookupRequests;
    // The client's own default: a consumer or producer cut off for long retries once a minute.
    maxBackoffIntervalMs = maxBackoffIntervalMs == null ? 60_000L : maxBackoffIntervalMs;
    namespacePrefix = namespacePrefix == null ? "benchmark/ns" : namespacePrefix;
    topicType = topicType == null ? TopicType.PERSISTENT : topicType;
    persistence = persistence == null ? new Persistence(null, null, null, null) : persistence;
    retention = retention == null ? new Retention(null, null) : retention;
    tlsAllowInsecureConnection = tlsAllowInsecureConnection != null && tlsAllowInsecureConnection;
    tlsEnableHostnameVerification =
        tlsEnableHostnameVerification != null && tlsEnableHostnameVerification;
    authentication = authentication == null ? new Authentication(null, null) : authentication;
    bookieHttpUrls = bookieHttpUrls == null ? List.of() : List.copyOf(bookieHttpUrls);
  }

  /** OMB's {@code client} section, its nested sections read whole. */
  static PulsarClientSettings read(DriverSettings s) throws DriverConfigException {
    return new PulsarClientSettings(
        s.string("serviceUrl").orElse(null),
        s.string("httpUrl").orElse(null),
        s.longValue("clientMemoryLimitMB").orElse(null),
        s.integer("ioThreads").orElse(null),
        s.integer("listenerThreads").orElse(null),
        s.integer("connectionsPerBroker").orElse(null),
        s.integer("maxConcurrentLookupRequests").orElse(null),
        s.longValue("maxBackoffIntervalMs").orElse(null),
        s.string("namespacePrefix").orElse(null),
        s.string("clusterName").orElse(null),
        s.enumValue("topicType", TopicType.class).orElse(null),
        WholeSection.read(s.section("persistence"), Persistence::read),
        WholeSection.read(s.section("retention"), Retention::read),
        s.bool("tlsAllowInsecureConnection").orElse(null),
        s.bool("tlsEnableHostnameVerification").orElse(null),
        s.string("tlsTrustCertsFilePath").orElse(null),
        WholeSection.read(s.section("authentication"), Authentication::read),
        s.list("bookieHttpUrls").orElse(null),
        s.bool("expectJournalSync").orElse(null));
  }

  /**
   * {@link #bookieHttpUrls} as URIs, blank entries skipped; fails naming the first entry that is no
   * {@code http://host:port}.
   */
  List<URI> bookieEndpoints() {
    List<URI> endpoints = new ArrayList<>();
    for (String entry : bookieHttpUrls) {
      if (entry == null || entry.isBlank()) {
        continue;
      }
      URI uri;
      try {
        uri = new URI(entry.strip());
      } catch (URISyntaxException e) {
        uri = null;
      }
      if (uri == null
          || !"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null
          || uri.getPort() < 0) {
        throw new IllegalArgumentException(
            "'" + entry.strip() + "' is no http://host:port of a bookie's HTTP server");
      }
      endpoints.add(uri);
    }
    return endpoints;
  }

  /**
   * OMB's {@code persistence}: each ledger entry is written to {@code writeQuorum} of {@code
   * ensembleSize} bookies and acknowledged after {@code ackQuorum} of them. Defaults are OMB's
   * (3/3/2), which a single standalone broker cannot satisfy: the shipped YAMLs say 1/1/1.
   */
  public record Persistence(
      Integer ensembleSize, Integer writeQuorum, Integer ackQuorum, Boolean deduplicationEnabled) {
    public Persistence {
      ensembleSize = ensembleSize == null ? 3 : ensembleSize;
      writeQuorum = writeQuorum == null ? 3 : writeQuorum;
      ackQuorum = ackQuorum == null ? 2 : ackQuorum;
      deduplicationEnabled = deduplicationEnabled != null && deduplicationEnabled;
    }

    /** OMB's {@code client.persistence} section. */
    static Persistence read(DriverSettings s) throws DriverConfigException {
      return new Persistence(
          s.integer("ensembleSize").orElse(null),
          s.integer("writeQuorum").orElse(null),
          s.integer("ackQuorum").orElse(null),
          s.bool("deduplicationEnabled").orElse(null));
    }
  }

  /**
   * How long and how much acknowledged data the namespace keeps (0: delete once every subscription
   * acknowledged it; -1: unlimited).
   */
  public record Retention(Integer timeInMinutes, Long sizeInMB) {
    public Retention {
      timeInMinutes = timeInMinutes == null ? 0 : timeInMinutes;
      sizeInMB = sizeInMB == null ? 0L : sizeInMB;
    }

    /** OMB's {@code client.retention} section. */
    static Retention read(DriverSettings s) throws DriverConfigException {
      return new Retention(
          s.integer("timeInMinutes").orElse(null), s.longValue("sizeInMB").orElse(null));
    }
  }

  /** OMB's {@code authentication}: a plugin class name and its parameter string. */
  public record Authentication(String plugin, String data) {
    /** OMB's {@code client.authentication} section. */
    static Authentication read(DriverSettings s) throws DriverConfigException {
      return new Authentication(s.string("plugin").orElse(null), s.string("data").orElse(null));
    }
  }
}
