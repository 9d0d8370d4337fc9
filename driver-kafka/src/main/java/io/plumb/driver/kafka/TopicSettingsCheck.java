package io.plumb.driver.kafka;

import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;

/**
 * The file's replication factor and topic settings checked at initialize, against themselves and
 * then against the broker, before any load: a run the cluster cannot serve fails in one line that
 * names the file, the line and the field.
 */
record TopicSettingsCheck(Admin admin, KafkaSettings settings, DriverSettings file) {
  /** How long initialize() waits for the broker to answer before calling it unreachable. */
  static final long CONNECT_TIMEOUT_SECONDS = 15;

  /**
   * Asks the broker to validate a topic with the file's replication factor and topic settings
   * without creating it, so a setting the broker rejects (an unknown name, more replicas than
   * brokers) fails the run before it starts, with the file and line.
   *
   * @return the settings the broker says the topic would get ({@link #validatedConfig}), null from
   *     older brokers
   */
  Config checkOnBroker(String topicNamePrefix) throws Exception {
    checkMinInsyncReplicas();
    checkCopiesFitTheCluster();
    NewTopic probe =
        new NewTopic(
                topicNamePrefix + "-config-check", Optional.of(1), settings.replicationFactor())
            .configs(settings.topicConfig());
    try {
      CreateTopicsResult result =
          admin.createTopics(List.of(probe), new CreateTopicsOptions().validateOnly(true));
      result.all().get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return validatedConfig(result, probe.name());
    } catch (TimeoutException e) {
      throw unreachable();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      String message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
      if (cause instanceof InvalidReplicationFactorException) {
        throw file.error("replicationFactor", "the broker rejects it: " + message);
      }
      if (cause instanceof org.apache.kafka.common.errors.InvalidConfigurationException
          || cause instanceof org.apache.kafka.common.errors.PolicyViolationException) {
        throw file.error("topicConfig", "the broker rejects it: " + message);
      }
      throw e;
    }
  }

  /**
   * More copies than the cluster has brokers can never be placed: refused in one line that names
   * the setting and the broker count the cluster reports, before the broker's own wordier refusal.
   */
  private void checkCopiesFitTheCluster() throws Exception {
    if (settings.replicationFactor().isEmpty()) {
      return;
    }
    int copies = settings.replicationFactor().get();
    int brokers;
    try {
      brokers =
          admin.describeCluster().nodes().get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS).size();
    } catch (TimeoutException e) {
      throw unreachable();
    }
    if (copies > brokers) {
      throw file.error(
          KafkaSettings.REPLICATION_FACTOR_KEY,
          "asks for "
              + copies
              + " copies but the Kafka cluster at "
              + bootstrapServers()
              + " has "
              + brokers
              + (brokers == 1 ? " broker" : " brokers")
              + " (start "
              + copies
              + ": deploy/local/kafka.sh start --nodes "
              + copies
              + ")");
    }
  }

  private BrokerUnreachableException unreachable() {
    return new BrokerUnreachableException(
        file.file(),
        "Kafka",
        String.valueOf(bootstrapServers()),
        "no answer within " + CONNECT_TIMEOUT_SECONDS + " s",
        "deploy/local/kafka.sh start",
        "--driver-set bootstrap.servers=HOST:PORT or " + KafkaSettings.BOOTSTRAP_ENV);
  }

  private Object bootstrapServers() {
    return settings.admin().get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
  }

  /**
   * The settings the broker says the topic would get (brokers since 2.4 answer a validation with
   * them): what brokerFacts reports until a real topic exists. Null from older brokers.
   */
  private static Config validatedConfig(CreateTopicsResult result, String topic)
      throws InterruptedException, TimeoutException {
    try {
      return result.config(topic).get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return null;
    }
  }

  /** With fewer replicas than min.insync.replicas every acks=all send would fail. */
  private void checkMinInsyncReplicas() throws DriverConfigException {
    String minInsync = settings.topicConfig().get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
    if (minInsync == null || settings.replicationFactor().isEmpty()) {
      return;
    }
    try {
      if (Integer.parseInt(minInsync.trim()) > settings.replicationFactor().get()) {
        throw file.error(
            "topicConfig",
            TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
            "min.insync.replicas="
                + minInsync
                + " is more than replicationFactor="
                + settings.replicationFactor().get()
                + ": every acks=all send would fail (a single local broker needs 1)");
      }
    } catch (NumberFormatException e) {
      throw file.error(
          "topicConfig", TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "not a number: " + minInsync);
    }
  }
}
