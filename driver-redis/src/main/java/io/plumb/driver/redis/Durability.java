package io.plumb.driver.redis;

import io.plumb.driver.DriverConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Redis durability is a server setting (the append-only file and how often it is fsynced), not a
 * per-message option. A driver file that asks for it gets it applied with CONFIG SET and read back
 * with CONFIG GET, so a result never claims a durability the server did not have.
 *
 * <p>With replicas, every server gets the same settings: any of them may become the primary, and
 * after a power loss of every node the primary restarts from its own AOF. Each server also writes
 * them to its config file (CONFIG REWRITE), so that a server restarted after a kill or a power loss
 * keeps them: one that came back with the AOF off would load nothing of what it had made durable.
 */
final class Durability {

  private Durability() {}

  /** Whether the file asks for any durability setting (and so changes the servers at all). */
  static boolean asked(RedisDriverConfig config) {
    return config.appendonly() != null || config.appendfsync() != null;
  }

  /**
   * Applies the file's settings to each replica ({@code host:port}) as to the primary and returns,
   * per replica, the values read back, e.g. {@code 127.0.0.1:6380 appendonly=yes
   * appendfsync=always}; a replica whose config file could not keep them is added to {@code
   * notKept}.
   */
  static List<String> applyToReplicas(
      List<String> replicas,
      JedisClientConfig connection,
      RedisDriverConfig config,
      Path file,
      List<String> notKept)
      throws DriverConfigException, InterruptedException {
    List<String> readBack = new ArrayList<>();
    for (String replica : replicas) {
      try (Jedis jedis = new Jedis(HostAndPort.from(replica), connection)) {
        Map<String, String> actual = apply(jedis, config, file, replica);
        String why = keep(jedis, replica);
        if (why != null) {
          notKept.add(why);
        }
        StringBuilder line = new StringBuilder(replica);
        actual.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
        readBack.add(line.toString());
      } catch (JedisException e) {
        throw new DriverConfigException(
            file
                + ": applying the durability settings to the replica "
                + replica
                + " failed: "
                + e.getMessage());
      }
    }
    return readBack;
  }

  /**
   * CONFIG REWRITE: the server's config file gets the settings in force, so a restart keeps them.
   * Returns null when it did; otherwise why not (a server started without a config file, or one
   * that forbids the command), which the facts report: a run without restarts is not affected.
   */
  static String keep(Jedis jedis, String server) {
    try {
      jedis.configRewrite();
      return null;
    } catch (JedisException e) {
      return server + ": " + e.getMessage();
    }
  }

  /**
   * Applies the file's settings (if any) to {@code server}, the one {@code jedis} reaches, and
   * returns the values read back from it.
   */
  static Map<String, String> apply(Jedis jedis, RedisDriverConfig config, Path file, String server)
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
                + server
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
                + server
                + " reports "
                + got
                + " after CONFIG SET");
      }
    }
    if ("yes".equals(actual.get("appendonly"))) {
      awaitRewrite(jedis, server);
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
  private static void awaitRewrite(Jedis jedis, String server) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      String info = jedis.info("persistence");
      if (info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("AOF rewrite on " + server + " still running after 60 s");
  }
}
