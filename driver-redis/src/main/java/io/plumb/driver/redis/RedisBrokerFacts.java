package io.plumb.driver.redis;

import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.DriverConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.Jedis;

/**
 * The Redis driver's broker facts: the file's settings, the server's version and replication, and
 * the durability settings as the servers report them once applied. Gathered at initialize, where
 * reading the server goes with refusing a file it cannot satisfy and applying the file's durability
 * settings (see {@link Durability}); replication is read again when the facts are asked for.
 */
final class RedisBrokerFacts {

  private final Map<String, String> facts = new ConcurrentHashMap<>();

  /**
   * Records the settings and what the server says, refuses a {@code waitReplicas} the server cannot
   * satisfy, and applies the file's durability settings, on {@code jedis}'s server (the primary)
   * and its replicas.
   */
  void gather(
      Jedis jedis, RedisDriverConfig config, RedisEndpoint endpoint, DriverConfig driverConfig)
      throws Exception {
    facts.put("redis.address", address(endpoint));
    facts.put("redis.mode", config.mode().toString());
    if (endpoint.sentinels()) {
      facts.put("redis.sentinels", String.join(",", config.sentinels()));
      facts.put("redis.sentinelMaster", config.sentinelMaster());
    }
    if (config.mode() == RedisDriverConfig.Mode.STREAMS) {
      facts.put("redis.consumeFrom", config.consumeFrom().toString());
    }
    String version = serverVersion(jedis.info("server"));
    facts.put("redis.version", version);
    facts.put(BrokerFactNames.BROKER_VERSION, version);
    // Refuse before CONFIG SET below changes anything on the server.
    Replication replication = Replication.parse(jedis.info("replication"));
    replication.refuseUnreachableWait(
        config.waitReplicas(), endpoint.describe(), driverConfig.settings());
    facts.putAll(replication.facts(address(endpoint)));
    if (config.waitReplicas() > 0) {
      facts.put("redis.waitReplicas", String.valueOf(config.waitReplicas()));
      facts.put("redis.waitTimeoutMillis", String.valueOf(config.waitTimeoutMillis()));
    }
    applyDurability(jedis, replication, config, endpoint, driverConfig);
    facts.put("redis.producer", config.producer().toString());
    if (config.mode() == RedisDriverConfig.Mode.STREAMS) {
      facts.put("redis.streams.pipelineDepth", String.valueOf(config.pipelineDepth()));
      facts.put("redis.streams.maxLen", String.valueOf(config.maxLen()));
      if (config.maxLen() > 0) {
        // XADD MAXLEN ~ trims a partition's stream's oldest entries, read or not: the run refuses
        // a backlog that would not fit instead of counting the trimmed entries as lost.
        facts.put(
            BrokerFactNames.RETENTION_MESSAGES_PER_PARTITION, String.valueOf(config.maxLen()));
        facts.put(
            BrokerFactNames.RETENTION_LIMIT,
            "maxLen "
                + config.maxLen()
                + " per partition stream (XADD MAXLEN ~); raise it with --driver-set maxLen=N,"
                + " 0 for none");
      }
      // A stream entry is a list of fields: the header gets one of its own. Pub/Sub messages have
      // none, so Pub/Sub reports neither fact, and the run refuses messages smaller than the
      // header there instead of sending them.
      facts.put(BrokerFactNames.HEADER_METADATA, StreamHeader.WHERE);
      facts.put(
          BrokerFactNames.HEADER_METADATA_BYTES,
          String.valueOf(StreamHeader.wireBytes(config.maxLen())));
    }
  }

  /**
   * The file's durability settings, on the primary and on every replica online (see {@link
   * Durability}), read back into the facts: {@code redis.appendonly} and {@code redis.appendfsync}
   * the primary's, {@code redis.replicaDurability} each replica's, and {@code redis.configRewrite}
   * whether every server's config file keeps them for a restart.
   */
  private void applyDurability(
      Jedis jedis,
      Replication replication,
      RedisDriverConfig config,
      RedisEndpoint endpoint,
      DriverConfig driverConfig)
      throws Exception {
    Durability.apply(jedis, config, driverConfig.file(), address(endpoint))
        .forEach((k, v) -> facts.put("redis." + k, v));
    if (!Durability.asked(config)) {
      return;
    }
    List<String> notKept = new ArrayList<>();
    String why = Durability.keep(jedis, address(endpoint));
    if (why != null) {
      notKept.add(why);
    }
    if (!replication.onlineReplicas().isEmpty()) {
      List<String> replicas =
          Durability.applyToReplicas(
              replication.onlineReplicas(),
              endpoint.dataConfig(),
              config,
              driverConfig.file(),
              notKept);
      facts.put("redis.replicaDurability", String.join("; ", replicas));
    }
    facts.put(
        "redis.configRewrite",
        notKept.isEmpty()
            ? "every server's config file keeps the settings for a restart"
            : "failed, a restart loses the settings: " + String.join("; ", notKept));
  }

  /**
   * The facts, with replication read again from the server while {@code endpoint} (null before
   * initialize) is open.
   */
  Map<String, String> withReplicationNow(RedisEndpoint endpoint) {
    if (endpoint != null && !endpoint.pool().isClosed()) {
      try (Jedis jedis = endpoint.pool().getResource()) {
        facts.putAll(Replication.parse(jedis.info("replication")).facts(address(endpoint)));
      }
    }
    return new TreeMap<>(facts);
  }

  /** The server the driver writes to now, as host:port. */
  private static String address(RedisEndpoint endpoint) {
    return endpoint.primary().toString();
  }

  private static String serverVersion(String info) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("redis_version:")) {
        return line.substring("redis_version:".length()).strip();
      }
    }
    return "unknown";
  }
}
