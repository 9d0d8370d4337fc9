package io.plumb.driver.redis;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;

/**
 * The settings of one Redis driver file. Field names follow OpenMessaging Benchmark's Redis driver
 * ({@code redisHost}, {@code redisPort}, {@code redisUser}, {@code redisPass}, {@code
 * jedisPoolMaxTotal}, {@code jedisPoolMaxIdle}) so its files run unchanged; the rest are Plumb's. A
 * missing field takes the default given here.
 *
 * @param name display name (OMB field, informational)
 * @param driverClass driver class name (OMB field; read by the framework)
 * @param redisHost server host
 * @param redisPort server port
 * @param redisUser ACL user, or none
 * @param redisPass password, or none
 * @param jedisPoolMaxTotal size of the pool for administrative commands (producers and consumers
 *     each hold their own connection)
 * @param jedisPoolMaxIdle idle connections kept in that pool
 * @param mode {@code streams} (default, as in OMB: XADD, consumer groups) or {@code pubsub}
 * @param pipelineDepth commands a producer sends per round trip (1 = one at a time)
 * @param maxPendingSends messages a producer queues for its sender; send() waits past this
 * @param maxLen approximate stream length cap per partition (XADD MAXLEN ~), 0 for none
 * @param readBatchSize entries a stream consumer reads per XREADGROUP (COUNT)
 * @param readBlockMillis how long XREADGROUP waits for new entries (BLOCK)
 * @param appendonly server setting applied at start: {@code yes}, {@code no}, or absent to leave
 *     the server as it is
 * @param appendfsync server setting applied at start: {@code always}, {@code everysec}, {@code no},
 *     or absent
 */
public record RedisDriverConfig(
    String name,
    String driverClass,
    String redisHost,
    Integer redisPort,
    String redisUser,
    String redisPass,
    Integer jedisPoolMaxTotal,
    Integer jedisPoolMaxIdle,
    Mode mode,
    Integer pipelineDepth,
    Integer maxPendingSends,
    Long maxLen,
    Integer readBatchSize,
    Integer readBlockMillis,
    String appendonly,
    String appendfsync) {

  /** Redis Streams or Pub/Sub. */
  public enum Mode {
    @JsonProperty("streams")
    STREAMS,
    @JsonProperty("pubsub")
    PUBSUB;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public RedisDriverConfig {
    redisHost = redisHost == null || redisHost.isBlank() ? "127.0.0.1" : redisHost.strip();
    redisPort = atLeast("redisPort", redisPort, 1, 6379);
    if (redisPort > 65535) {
      throw new IllegalArgumentException("field 'redisPort': must be <= 65535, was " + redisPort);
    }
    redisUser = redisUser == null || redisUser.isEmpty() ? null : redisUser;
    redisPass = redisPass == null || redisPass.isEmpty() ? null : redisPass;
    jedisPoolMaxTotal = atLeast("jedisPoolMaxTotal", jedisPoolMaxTotal, 1, 8);
    jedisPoolMaxIdle = atLeast("jedisPoolMaxIdle", jedisPoolMaxIdle, 0, 8);
    mode = mode == null ? Mode.STREAMS : mode;
    pipelineDepth = atLeast("pipelineDepth", pipelineDepth, 1, 16);
    maxPendingSends = atLeast("maxPendingSends", maxPendingSends, 1, 1024);
    maxLen = maxLen == null ? 0L : maxLen;
    if (maxLen < 0) {
      throw new IllegalArgumentException("field 'maxLen': must be >= 0 (0: no cap), was " + maxLen);
    }
    readBatchSize = atLeast("readBatchSize", readBatchSize, 1, 500);
    readBlockMillis = atLeast("readBlockMillis", readBlockMillis, 1, 100);
    appendonly = oneOf("appendonly", yesNo(appendonly), "yes", "no");
    appendfsync = oneOf("appendfsync", yesNo(appendfsync), "always", "everysec", "no");
  }

  /** YAML readers may turn yes/no into booleans; Redis wants the words. */
  private static String yesNo(String value) {
    if (value == null) {
      return null;
    }
    String v = value.strip().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "true" -> "yes";
      case "false" -> "no";
      default -> v;
    };
  }

  private static String oneOf(String field, String value, String... allowed) {
    if (value == null) {
      return null;
    }
    for (String a : allowed) {
      if (a.equals(value)) {
        return value;
      }
    }
    throw new IllegalArgumentException(
        "field '" + field + "': '" + value + "' is not one of " + String.join(", ", allowed));
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

  /** host:port, for messages. */
  String address() {
    return redisHost + ":" + redisPort;
  }
}
