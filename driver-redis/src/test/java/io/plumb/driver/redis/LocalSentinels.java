package io.plumb.driver.redis;

import java.util.Map;

/**
 * The Sentinels of the local 3-node cluster ({@code deploy/local/redis.sh start --nodes 3}): the
 * first on {@code PLUMB_REDIS_SENTINEL_PORT}, 26379 (the shipped files' port) by default, the other
 * two on the next ports.
 */
final class LocalSentinels {
  static final int PORT =
      Integer.parseInt(System.getenv().getOrDefault("PLUMB_REDIS_SENTINEL_PORT", "26379"));

  private LocalSentinels() {}

  /** The --driver-set that points a shipped file at them: none on the files' own ports. */
  static Map<String, String> overrides() {
    return PORT == 26379
        ? Map.of()
        : Map.of(
            "sentinels",
            "127.0.0.1:" + PORT + ",127.0.0.1:" + (PORT + 1) + ",127.0.0.1:" + (PORT + 2));
  }
}
