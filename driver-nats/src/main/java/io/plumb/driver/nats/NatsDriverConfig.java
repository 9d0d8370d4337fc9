package io.plumb.driver.nats;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The settings of one NATS driver file. Field names follow OpenMessaging Benchmark's NATS driver
 * ({@code natsHostUrl}, {@code replicationFactor}) so its files run unchanged; the rest are
 * Plumb's. A missing field takes the default given here.
 *
 * @param name display name (OMB field, informational)
 * @param driverClass driver class name (OMB field; read by the framework)
 * @param natsHostUrl server URL(s), comma-separated ({@code nats://host:port} or {@code host:port})
 * @param mode {@code core} (no persistence, at-most-once) or {@code jetstream} (default, as in OMB)
 * @param replicationFactor JetStream stream replicas (OMB field)
 * @param storageType JetStream stream storage: {@code file} or {@code memory}
 * @param maxBytes JetStream stream size limit in bytes, -1 for none
 * @param maxMessages JetStream stream message limit, -1 for none
 * @param maxAgeSeconds JetStream stream message age limit in seconds, 0 for none
 * @param maxOutstandingPublishes JetStream asynchronous publishes per producer awaiting their ack;
 *     send() waits when this many are outstanding
 * @param consumerType JetStream consumer: {@code pull} or {@code push}
 * @param pullBatchSize messages a pull consumer asks for per request
 * @param maxAckPending JetStream messages delivered but not yet acknowledged, per subscription
 * @param subscriberPendingBytes core NATS bytes buffered per consumer before the client drops
 *     messages as a slow consumer
 */
public record NatsDriverConfig(
    String name,
    String driverClass,
    String natsHostUrl,
    Mode mode,
    Integer replicationFactor,
    Storage storageType,
    Long maxBytes,
    Long maxMessages,
    Long maxAgeSeconds,
    Integer maxOutstandingPublishes,
    ConsumerType consumerType,
    Integer pullBatchSize,
    Integer maxAckPending,
    Long subscriberPendingBytes) {

  /** Core NATS or JetStream. */
  public enum Mode {
    @JsonProperty("core")
    CORE,
    @JsonProperty("jetstream")
    JETSTREAM;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** JetStream storage. */
  public enum Storage {
    @JsonProperty("file")
    FILE,
    @JsonProperty("memory")
    MEMORY;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** JetStream consumer style. */
  public enum ConsumerType {
    @JsonProperty("pull")
    PULL,
    @JsonProperty("push")
    PUSH;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public static final String DEFAULT_URL = "nats://127.0.0.1:4222";

  public NatsDriverConfig {
    natsHostUrl = natsHostUrl == null || natsHostUrl.isBlank() ? DEFAULT_URL : natsHostUrl.strip();
    mode = mode == null ? Mode.JETSTREAM : mode;
    replicationFactor = atLeast("replicationFactor", replicationFactor, 1, 1);
    storageType = storageType == null ? Storage.FILE : storageType;
    maxBytes = atLeast("maxBytes", maxBytes, -1L, -1L);
    maxMessages = atLeast("maxMessages", maxMessages, -1L, -1L);
    maxAgeSeconds = atLeast("maxAgeSeconds", maxAgeSeconds, 0L, 0L);
    maxOutstandingPublishes = atLeast("maxOutstandingPublishes", maxOutstandingPublishes, 1, 1024);
    consumerType = consumerType == null ? ConsumerType.PULL : consumerType;
    pullBatchSize = atLeast("pullBatchSize", pullBatchSize, 1, 256);
    maxAckPending = atLeast("maxAckPending", maxAckPending, 1, 10_000);
    subscriberPendingBytes =
        atLeast("subscriberPendingBytes", subscriberPendingBytes, 1L, 64L * 1024 * 1024);
    if (maxBytes == 0) {
      throw new IllegalArgumentException("field 'maxBytes': must be -1 (no limit) or > 0, was 0");
    }
    if (maxMessages == 0) {
      throw new IllegalArgumentException(
          "field 'maxMessages': must be -1 (no limit) or > 0, was 0");
    }
  }

  private static int atLeast(String field, Integer value, int min, int fallback) {
    if (value == null) {
      return fallback;
    }
    if (value < min) {
      throw new IllegalArgumentException(
          "field '" + field + "': must be >= " + min + ", was " + value);
    }
    return value;
  }

  private static long atLeast(String field, Long value, long min, long fallback) {
    if (value == null) {
      return fallback;
    }
    if (value < min) {
      throw new IllegalArgumentException(
          "field '" + field + "': must be >= " + min + ", was " + value);
    }
    return value;
  }

  /** Server URLs for the client: OMB files write {@code host:port}, which jnats also accepts. */
  String[] servers() {
    return java.util.Arrays.stream(natsHostUrl.split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .map(s -> s.contains("://") ? s : "nats://" + s)
        .toArray(String[]::new);
  }
}
