package io.plumb.driver.redis;

import io.plumb.driver.DaemonThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;
import redis.clients.jedis.JedisSentinelPool;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.Pool;

/**
 * Where the driver finds Redis: one fixed server ({@code redisHost}/{@code redisPort}), or the
 * primary that Redis Sentinel names ({@code sentinels}, {@code sentinelMaster}).
 *
 * <p>With Sentinels, Jedis's {@link JedisSentinelPool} does the following: it asks the Sentinels
 * for the primary, subscribes to {@code +switch-master} on every one of them and moves its pool to
 * the new primary after a failover. The driver's own long-lived connections (one per producer and
 * consumer) take their address from the pool's current primary whenever they connect, and a watcher
 * thread tells them when it changes ({@link #onPrimaryChange}), so that a connection left on a
 * former primary (frozen, cut off, or partitioned away while it still accepts writes) is dropped at
 * once rather than when a socket timeout ends.
 */
final class RedisEndpoint implements AutoCloseable {

  /** Connecting to a server that is down or cut off fails after this. */
  static final int CONNECT_TIMEOUT_MILLIS = 2_000;

  /** A producer's or consumer's read waits at most this for a server that stopped answering. */
  static final int DATA_SOCKET_TIMEOUT_MILLIS = 5_000;

  /** Administrative commands (CONFIG SET, INFO) may take longer. */
  static final int ADMIN_SOCKET_TIMEOUT_MILLIS = 10_000;

  /** How often {@link #connectAgreedPrimary} asks the Sentinels again while they disagree. */
  private static final long AGREEMENT_POLL_MILLIS = 200;

  /** How often the watcher compares the pool's primary with the last one it reported. */
  private static final long WATCH_MILLIS = 20;

  private final RedisDriverConfig config;
  private final JedisClientConfig dataConfig;
  private final JedisClientConfig sentinelConfig;
  private final Pool<Jedis> pool;
  private final List<HostAndPort> sentinels;
  private final HostAndPort fixed; // null with Sentinels
  private final List<Consumer<HostAndPort>> listeners = new CopyOnWriteArrayList<>();
  private final Thread watcher;
  private volatile boolean closed;

  private RedisEndpoint(RedisDriverConfig config) {
    this.config = config;
    this.dataConfig = clientConfig(config, dataSocketTimeoutMillis(config.replicaWait()));
    JedisClientConfig adminConfig = clientConfig(config, ADMIN_SOCKET_TIMEOUT_MILLIS);
    this.sentinelConfig =
        DefaultJedisClientConfig.builder()
            .clientName("plumb")
            .connectionTimeoutMillis(1_000)
            .socketTimeoutMillis(2_000)
            .build();
    JedisPoolConfig poolConfig = new JedisPoolConfig();
    poolConfig.setMaxTotal(config.jedisPoolMaxTotal());
    poolConfig.setMaxIdle(config.jedisPoolMaxIdle());
    // A server restarted in place (a kill or power loss with no failover to move the pool) leaves
    // the idle connections dead: a PING when one is borrowed replaces it, instead of the next admin
    // command (the final read, deleting the topics) failing on it. Admin commands are few.
    poolConfig.setTestOnBorrow(true);
    this.sentinels = config.sentinelAddresses();
    if (sentinels.isEmpty()) {
      this.fixed = new HostAndPort(config.redisHost(), config.redisPort());
      this.pool = new JedisPool(poolConfig, fixed, adminConfig);
      this.watcher = null;
    } else {
      this.fixed = null;
      // Fails at once if no Sentinel answers or none knows the master name.
      this.pool =
          new JedisSentinelPool(
              config.sentinelMaster(),
              new LinkedHashSet<>(sentinels),
              poolConfig,
              adminConfig,
              sentinelConfig);
      this.watcher = DaemonThreads.start("plumb-redis-primary-watch", this::watch);
    }
  }

  /**
   * The socket timeout of a producer's or consumer's own connection: {@link
   * #DATA_SOCKET_TIMEOUT_MILLIS}, or longer when the file's WAIT blocks nearly as long (a second
   * more than WAIT's timeout). A WAIT is a producer's read that blocks by design: a socket timeout
   * before its answer would fail batches the replicas confirm in time, and drop the connection.
   * (Jedis lifts the timeout itself for a consumer's blocking XREADGROUP.)
   *
   * @param wait the file's WAIT, or null for none
   */
  static int dataSocketTimeoutMillis(ReplicaWait wait) {
    return wait == null
        ? DATA_SOCKET_TIMEOUT_MILLIS
        : Math.max(DATA_SOCKET_TIMEOUT_MILLIS, wait.timeoutMillis() + 1_000);
  }

  static RedisEndpoint open(RedisDriverConfig config) {
    return new RedisEndpoint(config);
  }

  private static JedisClientConfig clientConfig(RedisDriverConfig config, int socketTimeout) {
    return DefaultJedisClientConfig.builder()
        .user(config.redisUser())
        .password(config.redisPass())
        .clientName("plumb")
        .connectionTimeoutMillis(CONNECT_TIMEOUT_MILLIS)
        .socketTimeoutMillis(socketTimeout)
        .build();
  }

  boolean sentinels() {
    return fixed == null;
  }

  /**
   * The primary now, for a producer or consumer that checks its connection still goes there; null
   * for a fixed server, which no failover moves.
   */
  Supplier<HostAndPort> primaryToFollow() {
    return sentinels() ? this::primary : null;
  }

  /** A producer's own connection to the primary now; throws if it cannot be reached. */
  ProducerConnection openProducer() {
    return ProducerConnection.open(primary(), dataConfig);
  }

  /** A consumer's own connection to the primary now; throws if it cannot be reached. */
  ConsumerConnection openConsumer() {
    return ConsumerConnection.open(primary(), dataConfig);
  }

  /** The primary now: the fixed server, or the one Sentinel named last. */
  HostAndPort primary() {
    return fixed != null ? fixed : ((JedisSentinelPool) pool).getCurrentHostMaster();
  }

  /** Connections for administrative commands, to the primary. */
  Pool<Jedis> pool() {
    return pool;
  }

  /** Settings of a producer's or consumer's own connection. */
  JedisClientConfig dataConfig() {
    return dataConfig;
  }

  /** A new connection of its own to the primary, for a consumer. */
  Jedis connectPrimary() {
    return new Jedis(primary(), dataConfig);
  }

  /**
   * A new connection of its own to the primary as the broker says it now ({@link #primaryNow}),
   * waiting up to {@code timeout} while no majority of the Sentinels agrees on one. For reading
   * what a run left: the pool follows whichever Sentinel announced a switch last, and after a
   * partition that can be a minority's former primary, whose streams lack what the new one
   * acknowledged.
   *
   * @throws IllegalStateException if no majority names a primary within {@code timeout}
   */
  Jedis connectAgreedPrimary(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<String> primary = primaryNow();
      if (primary.isPresent()) {
        return new Jedis(HostAndPort.from(primary.get()), dataConfig);
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "no majority of the Sentinels "
                + sentinels
                + " named a primary for '"
                + config.sentinelMaster()
                + "' within "
                + timeout.toSeconds()
                + " s");
      }
      Thread.sleep(AGREEMENT_POLL_MILLIS);
    }
  }

  /**
   * Calls {@code listener} with the new primary whenever Sentinel names another one.
   *
   * @return stops the calls
   */
  Runnable onPrimaryChange(Consumer<HostAndPort> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  private void watch() {
    HostAndPort reported = primary();
    while (!closed) {
      try {
        Thread.sleep(WATCH_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      HostAndPort now = primary();
      if (now != null && !now.equals(reported)) {
        reported = now;
        for (Consumer<HostAndPort> l : listeners) {
          try {
            l.accept(now);
          } catch (RuntimeException e) {
            // One listener's failure must not keep the others on the old primary.
          }
        }
      }
    }
  }

  /**
   * The primary as the broker says it now. With Sentinels: the address a majority of the listed
   * Sentinels name ({@code SENTINEL get-master-addr-by-name}), asked afresh, not the pool's last
   * view; empty while no majority agrees (a failover under way, or Sentinels cut off). Without: the
   * server itself if it is a primary, else the primary it replicates ({@code INFO replication}).
   */
  Optional<String> primaryNow() {
    if (fixed != null) {
      try (Jedis jedis = pool.getResource()) {
        Replication r = Replication.parse(jedis.info("replication"));
        return Optional.of(r.isReplica() ? r.primaryOfReplica() : fixed.toString());
      }
    }
    Map<String, Integer> votes = new HashMap<>();
    for (HostAndPort sentinel : sentinels) {
      try (Jedis jedis = new Jedis(sentinel, sentinelConfig)) {
        List<String> addr = jedis.sentinelGetMasterAddrByName(config.sentinelMaster());
        if (addr != null && addr.size() == 2) {
          votes.merge(addr.get(0) + ":" + addr.get(1), 1, Integer::sum);
        }
      } catch (JedisException e) {
        // This Sentinel is down or cut off: no vote.
      }
    }
    return votes.entrySet().stream()
        .filter(e -> e.getValue() > sentinels.size() / 2)
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /**
   * A connection to a replica to read from: the replicas the first Sentinel that answers lists
   * ({@code SENTINEL REPLICAS}), skipping those it considers down or disconnected and trying first
   * those whose link to the primary is up, and of those the first that says it is a replica itself
   * ({@code INFO replication}). The server's own word settles it because right after a failover a
   * Sentinel lists the former primary among the new one's replicas before that server has been told
   * (and, partitioned, while it cannot be): a consumer that connected there would read the writes
   * the former primary acknowledged and is about to discard, and a weak configuration's loss would
   * never show.
   *
   * @throws JedisException if no Sentinel answers or none lists a replica that is up and is one
   */
  ConsumerConnection openReplica() {
    JedisException last = null;
    for (HostAndPort sentinel : sentinels) {
      List<Map<String, String>> replicas;
      try (Jedis jedis = new Jedis(sentinel, sentinelConfig)) {
        replicas = jedis.sentinelReplicas(config.sentinelMaster());
      } catch (JedisException e) {
        last = e;
        continue;
      }
      List<HostAndPort> candidates = replicaCandidates(replicas);
      if (candidates.isEmpty()) {
        last = new JedisException("Sentinel " + sentinel + " lists no replica that is up");
      }
      for (HostAndPort candidate : candidates) {
        ConsumerConnection connection;
        try {
          connection = ConsumerConnection.open(candidate, dataConfig);
        } catch (JedisException e) {
          last = e;
          continue;
        }
        try {
          if (Replication.parse(connection.jedis().info("replication")).isReplica()) {
            return connection;
          }
          last =
              new JedisException(
                  "Sentinel "
                      + sentinel
                      + " lists "
                      + candidate
                      + " as a replica, but it is a primary");
        } catch (JedisException e) {
          last = e;
        }
        connection.close();
      }
    }
    throw last != null ? last : new JedisException("no Sentinel listed");
  }

  /** The replicas a Sentinel lists that are up, those with their link to the primary up first. */
  static List<HostAndPort> replicaCandidates(List<Map<String, String>> replicas) {
    List<HostAndPort> linked = new ArrayList<>();
    List<HostAndPort> unlinked = new ArrayList<>();
    for (Map<String, String> r : replicas) {
      String flags = r.getOrDefault("flags", "");
      if (flags.contains("down") || flags.contains("disconnected")) {
        continue;
      }
      HostAndPort address = new HostAndPort(r.get("ip"), Integer.parseInt(r.get("port")));
      ("ok".equals(r.get("master-link-status")) ? linked : unlinked).add(address);
    }
    linked.addAll(unlinked);
    return linked;
  }

  /** The server the driver writes to now, for messages and facts. */
  String describe() {
    return fixed != null
        ? fixed.toString()
        : primary() + " (primary of '" + config.sentinelMaster() + "' per Sentinel)";
  }

  @Override
  public void close() {
    closed = true;
    if (watcher != null) {
      watcher.interrupt();
    }
    pool.close();
  }
}
