package io.plumb.driver.nats;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The settings of one NATS driver file. Field names follow OpenMessaging Benchmark's NATS driver
 * ({@code natsHostUrl}, {@code replicationFactor}) so its files run unchanged; the rest are
 * Plumb's. A missing field takes the default given here.
 *
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
 * @param natsMonitorUrl the servers' monitoring endpoints, comma-separated ({@code
 *     http://host:8222}), where the driver reads each server's sync policy; by default port 8222 of
 *     every host in {@code natsHostUrl}
 * @param expectSync the JetStream sync policy every server must report, or null for any: a run
 *     whose servers sync otherwise is refused before any load
 */
public record NatsDriverConfig(
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
    Long subscriberPendingBytes,
    String natsMonitorUrl,
    Sync expectSync) {

  /** Core NATS or JetStream. */
  public enum Mode {
    CORE,
    JETSTREAM;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** JetStream storage. */
  public enum Storage {
    FILE,
    MEMORY;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** JetStream consumer style. */
  public enum ConsumerType {
    PULL,
    PUSH;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * JetStream's sync policy: {@code always} fsyncs every write before the publish is acknowledged;
   * {@code default} is NATS's own, the file store synced in the background every 2 minutes.
   */
  public enum Sync {
    ALWAYS,
    DEFAULT;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public static final String DEFAULT_URL = "nats://127.0.0.1:4222";

  /** Environment variable that overrides {@code natsHostUrl} of the file. */
  public static final String URL_ENV = "NATS_URL";

  /** NATS's customary monitoring port, where the default {@code natsMonitorUrl} looks. */
  static final int DEFAULT_MONITOR_PORT = 8222;

  /**
   * Reads the file's settings, with {@value #URL_ENV} from {@code environment} beneath the command
   * line's values. Missing fields take the defaults written here.
   */
  static NatsDriverConfig read(DriverSettings file, Map<String, String> environment)
      throws DriverConfigException {
    DriverSettings s = file.withEnvironment(environment, Map.of(URL_ENV, "natsHostUrl"));
    String url = s.string("natsHostUrl", "").strip();
    String monitor = s.string("natsMonitorUrl", "").strip();
    NatsDriverConfig config =
        new NatsDriverConfig(
            url.isEmpty() ? DEFAULT_URL : url,
            s.enumValue("mode", Mode.class, Mode.JETSTREAM),
            s.integerAtLeast("replicationFactor", 1, 1),
            s.enumValue("storageType", Storage.class, Storage.FILE),
            s.longAtLeast("maxBytes", -1L, -1L),
            s.longAtLeast("maxMessages", -1L, -1L),
            s.longAtLeast("maxAgeSeconds", 0L, 0L),
            s.integerAtLeast("maxOutstandingPublishes", 1, 1024),
            s.enumValue("consumerType", ConsumerType.class, ConsumerType.PULL),
            s.integerAtLeast("pullBatchSize", 1, 256),
            s.integerAtLeast("maxAckPending", 1, 10_000),
            s.longAtLeast("subscriberPendingBytes", 1L, 64L * 1024 * 1024),
            monitor.isEmpty() ? null : monitor,
            s.enumValue("expectSync", Sync.class).orElse(null));
    if (config.maxBytes() == 0) {
      throw s.error("maxBytes", "must be -1 (no limit) or > 0, was 0");
    }
    if (config.maxMessages() == 0) {
      throw s.error("maxMessages", "must be -1 (no limit) or > 0, was 0");
    }
    if (config.expectSync() != null && config.mode() == Mode.CORE) {
      throw s.error("expectSync", "core NATS stores nothing, so there is no sync policy to expect");
    }
    try {
      config.monitors();
    } catch (IllegalArgumentException e) {
      throw s.error("natsMonitorUrl", e.getMessage());
    }
    s.finish();
    return config;
  }

  /** Server URLs for the client: OMB files write {@code host:port}, which jnats also accepts. */
  String[] servers() {
    return java.util.Arrays.stream(natsHostUrl.split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .map(s -> s.contains("://") ? s : "nats://" + s)
        .toArray(String[]::new);
  }

  /**
   * The monitoring endpoints to read each server's sync policy from: {@code natsMonitorUrl}, or
   * port {@value #DEFAULT_MONITOR_PORT} of every distinct host of {@code natsHostUrl}.
   */
  List<URI> monitors() {
    List<URI> found = new ArrayList<>();
    if (natsMonitorUrl != null) {
      for (String entry : natsMonitorUrl.split(",")) {
        if (entry.isBlank()) {
          continue;
        }
        URI uri = parseUri(entry.strip());
        if (uri == null
            || !"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
            || uri.getHost() == null) {
          throw new IllegalArgumentException(
              "'" + entry.strip() + "' is no http://host:port monitoring endpoint");
        }
        found.add(uri);
      }
      return found;
    }
    for (String server : servers()) {
      String host = URI.create(server).getHost();
      URI uri = URI.create("http://" + host + ":" + DEFAULT_MONITOR_PORT);
      if (host != null && !found.contains(uri)) {
        found.add(uri);
      }
    }
    return found;
  }

  private static URI parseUri(String text) {
    try {
      return new URI(text);
    } catch (java.net.URISyntaxException e) {
      return null;
    }
  }
}
