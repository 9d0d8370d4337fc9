package io.plumb.driver.redis;

import io.plumb.driver.DriverConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Redis durability is a server setting (the append-only file and how often it is fsynced), not a
 * per-message option. A driver file that asks for it gets it applied with CONFIG SET and read back
 * with CONFIG GET, so a result never claims a durability the server did not have.
 */
final class Durability {

  private Durability() {}

  /** Applies the file's settings (if any) and returns the values read back from the server. */
  static Map<String, String> apply(Jedis jedis, RedisDriverConfig config, Path file)
      throws DriverConfigException, InterruptedException {
    Map<String, String> wanted = new LinkedHashMap<>();
    // appendfsync first: enabling appendonly starts writing with whatever policy is in force.
    if (config.appendfsync() != null) {
      wanted.put("appendfsync", config.appendfsync());
    }
    if (config.appendonly() != null) {
      wanted.put("appendonly", config.appendonly());
    }
    for (Map.Entry<String, String> w : wanted.entrySet()) {
      try {
        jedis.configSet(w.getKey(), w.getValue());
      } catch (JedisException e) {
        throw new DriverConfigException(
            file
                + ": field '"
                + w.getKey()
                + "': CONFIG SET "
                + w.getKey()
                + " "
                + w.getValue()
                + " failed on "
                + config.address()
                + ": "
                + e.getMessage());
      }
    }
    Map<String, String> actual = readBack(jedis);
    for (Map.Entry<String, String> w : wanted.entrySet()) {
      String got = actual.get(w.getKey());
      if (!w.getValue().equals(got)) {
        throw new DriverConfigException(
            file
                + ": field '"
                + w.getKey()
                + "': asked for "
                + w.getValue()
                + " but "
                + config.address()
                + " reports "
                + got
                + " after CONFIG SET");
      }
    }
    if ("yes".equals(actual.get("appendonly"))) {
      awaitRewrite(jedis, config);
    }
    return actual;
  }

  static Map<String, String> readBack(Jedis jedis) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String key : new String[] {"appendonly", "appendfsync"}) {
      values.put(key, jedis.configGet(key).get(key));
    }
    return values;
  }

  /**
   * Turning the AOF on starts a background rewrite of the whole data set; waiting for it keeps that
   * one-off work out of the measured run.
   */
  private static void awaitRewrite(Jedis jedis, RedisDriverConfig config)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      String info = jedis.info("persistence");
      if (info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException(
        "AOF rewrite on " + config.address() + " still running after 60 s");
  }
}
