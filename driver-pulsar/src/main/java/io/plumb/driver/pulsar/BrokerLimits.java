package io.plumb.driver.pulsar;

import io.plumb.driver.BrokerFactNames;
import java.util.Map;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.admin.PulsarAdminException;

/**
 * What the broker's configuration limits, read for the result: the largest message it takes ({@code
 * maxMessageSize}, for the run's refusal of a larger {@code messageSize}), and what could take a
 * backlog away from a paused subscription, the backlog quota and the message TTL. The run's
 * namespace is new and sets neither, so the broker's defaults are what applies to its topics. Read
 * for the facts {@code pulsar.backlogQuota} and {@code pulsar.messageTTL}, not refused: whether a
 * quota is too small depends on the workload's {@code consumerBacklogSizeGB}, which a driver is not
 * told, and the driver leaves the broker's settings alone. A quota reached holds the producers
 * ({@code producer_request_hold}: sends time out), fails their sends ({@code producer_exception})
 * or drops the oldest messages of the backlog ({@code consumer_backlog_eviction}); a TTL expires
 * unacknowledged messages. Pulsar 4's defaults set neither.
 */
final class BrokerLimits {
  static final String QUOTA_FACT = "pulsar.backlogQuota";
  static final String TTL_FACT = "pulsar.messageTTL";

  /**
   * Room left in a message for what the client adds around the body (its metadata: producer name,
   * sequence id, times, properties: {@link PulsarHeader#WIRE_BYTES} for Plumb's header when it
   * travels as one), well above what this driver's messages carry.
   */
  static final int METADATA_BYTES = 1024;

  private BrokerLimits() {}

  /** Reads the broker's runtime configuration into the two facts; a refusal is "not read". */
  static void read(PulsarAdmin admin, PulsarBrokerFacts facts) {
    Map<String, String> config;
    try {
      config = admin.brokers().getRuntimeConfigurations();
    } catch (PulsarAdminException e) {
      String why = "not read: " + Causes.rootMessage(e);
      facts.put(QUOTA_FACT, why);
      facts.put(TTL_FACT, why);
      return;
    }
    facts.put(QUOTA_FACT, quota(config));
    facts.put(TTL_FACT, ttl(config));
    long maxMessageSize = (long) parse(config.getOrDefault("maxMessageSize", "-1"));
    if (maxMessageSize > METADATA_BYTES) {
      facts.put(BrokerFactNames.MAX_MESSAGE_BYTES, String.valueOf(maxMessageSize - METADATA_BYTES));
      facts.put(
          BrokerFactNames.MAX_MESSAGE_BYTES_LIMIT,
          "broker maxMessageSize "
              + maxMessageSize
              + ", less "
              + METADATA_BYTES
              + " bytes for the message's metadata; raise maxMessageSize in the broker's"
              + " configuration (and nettyMaxFrameSizeBytes with it)");
    }
  }

  /**
   * {@code none (broker defaults backlogQuotaDefaultLimitBytes=-1,
   * backlogQuotaDefaultLimitSecond=-1)} or the limits set, with their retention policy. The
   * deprecated {@code backlogQuotaDefaultLimitGB}, when above 0, takes the place of the byte limit,
   * as in the broker.
   */
  static String quota(Map<String, String> config) {
    String bytes = config.getOrDefault("backlogQuotaDefaultLimitBytes", "-1");
    String seconds = config.getOrDefault("backlogQuotaDefaultLimitSecond", "-1");
    String gb = config.getOrDefault("backlogQuotaDefaultLimitGB", "-1");
    String size = null;
    if (parse(gb) > 0) {
      size = "backlogQuotaDefaultLimitGB=" + gb;
    } else if (parse(bytes) > 0) {
      size = "backlogQuotaDefaultLimitBytes=" + bytes;
    }
    String time = parse(seconds) > 0 ? "backlogQuotaDefaultLimitSecond=" + seconds : null;
    if (size == null && time == null) {
      return "none (broker defaults backlogQuotaDefaultLimitBytes="
          + bytes
          + ", backlogQuotaDefaultLimitSecond="
          + seconds
          + ")";
    }
    String limits = size == null ? time : time == null ? size : size + ", " + time;
    return limits
        + ", backlogQuotaDefaultRetentionPolicy="
        + config.getOrDefault("backlogQuotaDefaultRetentionPolicy", "producer_request_hold")
        + " (broker defaults)";
  }

  /** {@code none (broker default ttlDurationDefaultInSeconds=0)} or the TTL set. */
  static String ttl(Map<String, String> config) {
    String seconds = config.getOrDefault("ttlDurationDefaultInSeconds", "0");
    return (parse(seconds) > 0 ? seconds + " s" : "none")
        + " (broker default ttlDurationDefaultInSeconds="
        + seconds
        + ")";
  }

  private static double parse(String value) {
    try {
      return Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
