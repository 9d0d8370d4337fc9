package io.plumb.driver.pulsar;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.util.Map;

/**
 * The Pulsar driver's YAML, in OMB's Pulsar format: {@code client}, {@code producer} and {@code
 * consumer} sections with OMB's field names, plus a few of Plumb's own.
 *
 * @param client connection, namespace and persistence settings
 * @param producer batching and queueing of producers
 * @param consumer subscription settings
 */
public record PulsarConfig(
    PulsarClientSettings client, PulsarProducerSettings producer, PulsarConsumerSettings consumer) {

  /** Environment variables that replace client URLs, beneath {@code --driver-set}. */
  static final Map<String, String> ENVIRONMENT =
      Map.of("PULSAR_SERVICE_URL", "client.serviceUrl", "PULSAR_HTTP_URL", "client.httpUrl");

  /** Reads and checks the file's settings; absent fields and sections take OMB's defaults. */
  static PulsarConfig read(DriverSettings file, Map<String, String> environment)
      throws DriverConfigException {
    DriverSettings s = file.withEnvironment(environment, ENVIRONMENT);
    DriverSettings client = s.section("client");
    DriverSettings producer = s.section("producer");
    DriverSettings consumer = s.section("consumer");
    PulsarConfig config =
        new PulsarConfig(
            WholeSection.read(client, PulsarClientSettings::read),
            WholeSection.read(producer, PulsarProducerSettings::read),
            WholeSection.read(consumer, PulsarConsumerSettings::read));
    s.finish();
    config.validate(client, producer);
    return config;
  }

  private void validate(DriverSettings clientSection, DriverSettings producerSection)
      throws DriverConfigException {
    DriverSettings persistenceSection = clientSection.section("persistence");
    PulsarClientSettings.Persistence p = client.persistence();
    if (p.ensembleSize() < 1 || p.writeQuorum() < 1 || p.ackQuorum() < 1) {
      throw persistenceSection.error(
          "ensembleSize", "ensembleSize, writeQuorum and ackQuorum must be at least 1");
    }
    if (!(p.ackQuorum() <= p.writeQuorum() && p.writeQuorum() <= p.ensembleSize())) {
      String field = p.ackQuorum() > p.writeQuorum() ? "ackQuorum" : "writeQuorum";
      throw persistenceSection.error(
          field,
          "needs ackQuorum ("
              + p.ackQuorum()
              + ") <= writeQuorum ("
              + p.writeQuorum()
              + ") <= ensembleSize ("
              + p.ensembleSize()
              + ")");
    }
    String prefix = client.namespacePrefix();
    if (prefix.split("/").length != 2) {
      throw clientSection.error(
          "namespacePrefix", "'" + prefix + "' is not tenant/namespace-prefix");
    }
    try {
      client.bookieEndpoints();
    } catch (IllegalArgumentException e) {
      throw clientSection.error("bookieHttpUrls", e.getMessage());
    }
    if (client.expectJournalSync() != null && client.topicType() == TopicType.NON_PERSISTENT) {
      throw clientSection.error(
          "expectJournalSync",
          "non-persistent topics are not stored, so there is no journal sync to expect");
    }
    if (client.expectJournalSync() != null && client.bookieEndpoints().isEmpty()) {
      throw clientSection.error(
          "expectJournalSync",
          "needs client.bookieHttpUrls, the bookies' HTTP servers where journalSyncData is read back"
              + " (deploy/local/pulsar.sh's: http://127.0.0.1:8001,http://127.0.0.1:8002,"
              + "http://127.0.0.1:8003)");
    }
    if (client.maxBackoffIntervalMs() < 1) {
      throw clientSection.error("maxBackoffIntervalMs", "allowed: 1 or more (milliseconds)");
    }
    if (producer.sendTimeoutMs() < 0) {
      throw producerSection.error(
          "sendTimeoutMs", "allowed: 0 (a send waits as long as it takes) or more (milliseconds)");
    }
    if (producer.pendingQueueSize() < 0) {
      throw producerSection.error("pendingQueueSize", "allowed: 0 (no per-producer limit) or more");
    }
  }
}
