package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerFactNames;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.driver.MessageListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Redis driver: Redis Streams (XADD, consumer groups with XREADGROUP and XACK) or Pub/Sub, chosen
 * by the driver file's {@code mode}. A topic's partitions are the keys {@code topic-0 ..
 * topic-N-1}; see {@link RedisKeys}. Durability settings in the file are applied to the server at
 * initialize and read back (see {@link Durability}).
 *
 * <p>Each producer and consumer holds its own connection (a blocking XREADGROUP or a SUBSCRIBE
 * occupies one); the pool sized by OMB's {@code jedisPool*} fields serves administrative commands.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.redis.RedisBenchmarkDriver"})
public final class RedisBenchmarkDriver implements BenchmarkDriver {

  /** Environment variables that override {@code redisHost} and {@code redisPort} of the file. */
  public static final String HOST_ENV = "REDIS_HOST";

  public static final String PORT_ENV = "REDIS_PORT";

  private final Map<String, String> environment;
  private RedisDriverConfig config;
  private JedisClientConfig clientConfig;
  private HostAndPort address;
  private JedisPool pool;
  private final Map<String, Integer> partitionsByTopic = new ConcurrentHashMap<>();
  private final Map<String, PubSubSubscription> pubSubSubscriptions = new ConcurrentHashMap<>();
  private final Map<String, String> facts = new ConcurrentHashMap<>();

  public RedisBenchmarkDriver() {
    this(System.getenv());
  }

  /** For tests: the environment the driver reads its overrides from. */
  RedisBenchmarkDriver(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    Map<String, String> envToField = new java.util.LinkedHashMap<>();
    envToField.put(HOST_ENV, "redisHost");
    envToField.put(PORT_ENV, "redisPort");
    config = RedisDriverConfig.read(driverConfig.settings(), environment, envToField);
    clientConfig =
        DefaultJedisClientConfig.builder()
            .user(config.redisUser())
            .password(config.redisPass())
            .clientName("plumb")
            .timeoutMillis(10_000)
            .build();
    address = new HostAndPort(config.redisHost(), config.redisPort());
    JedisPoolConfig poolConfig = new JedisPoolConfig();
    poolConfig.setMaxTotal(config.jedisPoolMaxTotal());
    poolConfig.setMaxIdle(config.jedisPoolMaxIdle());
    pool = new JedisPool(poolConfig, address, clientConfig);
    try (Jedis jedis = pool.getResource()) {
      facts.put("redis.address", config.address());
      facts.put("redis.mode", config.mode().toString());
      String version = serverVersion(jedis.info("server"));
      facts.put("redis.version", version);
      facts.put(BrokerFactNames.BROKER_VERSION, version);
      // Refuse before CONFIG SET below changes anything on the server.
      Replication replication = Replication.parse(jedis.info("replication"));
      refuseUnreachableWait(replication, driverConfig.settings());
      facts.putAll(replication.facts(config.address()));
      if (config.waitReplicas() > 0) {
        facts.put("redis.waitReplicas", String.valueOf(config.waitReplicas()));
        facts.put("redis.waitTimeoutMillis", String.valueOf(config.waitTimeoutMillis()));
      }
      Durability.apply(jedis, config, driverConfig.file())
          .forEach((k, v) -> facts.put("redis." + k, v));
      if (config.mode() == RedisDriverConfig.Mode.STREAMS) {
        facts.put("redis.streams.pipelineDepth", String.valueOf(config.pipelineDepth()));
        facts.put("redis.streams.maxLen", String.valueOf(config.maxLen()));
      }
    } catch (JedisConnectionException e) {
      pool.close();
      throw new java.io.IOException(
          "cannot connect to Redis at "
              + config.address()
              + " ("
              + e.getMessage()
              + "); for a local server: deploy/local/redis.sh start",
          e);
    } catch (Exception e) {
      pool.close();
      throw e;
    }
  }

  /**
   * A WAIT for more replicas than the server has online could never succeed: every send would fail
   * after the timeout. Neither can a WAIT sent to a replica (Redis refuses it there).
   */
  private void refuseUnreachableWait(Replication replication, DriverSettings file)
      throws DriverConfigException {
    int asked = config.waitReplicas();
    if (asked == 0) {
      return;
    }
    if (replication.isReplica()) {
      throw file.error(
          "waitReplicas",
          "asks WAIT for "
              + plural(asked, "replica")
              + " but the Redis server at "
              + config.address()
              + " is itself a replica (of "
              + replication.primaryOfReplica()
              + "), where WAIT is refused: point redisPort at the primary"
              + " (deploy/local/redis.sh primary names it)");
    }
    int have = replication.onlineReplicas().size();
    if (asked > have) {
      throw file.error(
          "waitReplicas",
          "asks WAIT for "
              + plural(asked, "replica")
              + " but the Redis server at "
              + config.address()
              + " has "
              + plural(replication.copies(), "node")
              + " (a primary with "
              + plural(have, "online replica")
              + (have == 0
                  ? "; start 3: deploy/local/redis.sh start --nodes 3)"
                  : "; WAIT can count " + have + " at most)"));
    }
  }

  private static String plural(int n, String thing) {
    return n + " " + thing + (n == 1 ? "" : "s");
  }

  private static String serverVersion(String info) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("redis_version:")) {
        return line.substring("redis_version:".length()).strip();
      }
    }
    return "unknown";
  }

  /** A new dedicated connection, for a producer's sender or a consumer's reader. */
  private final Supplier<Jedis> connect = () -> new Jedis(address, clientConfig);

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    if (partitions < 1) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("partitions must be >= 1, was " + partitions));
    }
    try (Jedis jedis = pool.getResource()) {
      // Streams and channels appear on first use; record the partition count for other workers.
      jedis.set(RedisKeys.partitionCountKey(topic), String.valueOf(partitions));
      partitionsByTopic.put(topic, partitions);
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private int partitions(String topic) {
    Integer known = partitionsByTopic.get(topic);
    if (known != null) {
      return known;
    }
    String recorded;
    try (Jedis jedis = pool.getResource()) {
      recorded = jedis.get(RedisKeys.partitionCountKey(topic));
    }
    if (recorded == null) {
      throw new IllegalStateException(
          "topic " + topic + " was not created (no " + RedisKeys.partitionCountKey(topic) + ")");
    }
    int n = Integer.parseInt(recorded);
    partitionsByTopic.put(topic, n);
    return n;
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    try {
      int n = partitions(topic);
      byte[][] keys = RedisKeys.partitions(topic, n);
      CommandEncoder encoder =
          config.mode() == RedisDriverConfig.Mode.STREAMS
              ? CommandEncoder.xadd(keys, config.maxLen())
              : CommandEncoder.publish(keys);
      return CompletableFuture.completedFuture(
          new PipelinedProducer(
              () -> ProducerConnection.open(address, clientConfig),
              encoder,
              topic,
              n,
              config.pipelineDepth(),
              config.maxPendingSends(),
              config.replicaWait()));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    try {
      int partitions = partitions(topic);
      if (config.mode() == RedisDriverConfig.Mode.STREAMS) {
        String member = subscription + "-" + UUID.randomUUID().toString().substring(0, 8);
        return CompletableFuture.completedFuture(
            new StreamConsumer(
                connect,
                topic,
                partitions,
                subscription,
                member,
                config.readBatchSize(),
                config.readBlockMillis(),
                listener));
      }
      return CompletableFuture.completedFuture(
          joinPubSub(topic, subscription, partitions, listener));
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private BenchmarkConsumer joinPubSub(
      String topic, String subscription, int partitions, MessageListener listener)
      throws Exception {
    String id = topic + '\u0000' + subscription;
    synchronized (pubSubSubscriptions) {
      PubSubSubscription s = pubSubSubscriptions.get(id);
      if (s == null) {
        s = new PubSubSubscription(connect.get(), topic, partitions);
        pubSubSubscriptions.put(id, s);
      }
      s.join(listener);
      PubSubSubscription joined = s;
      return () -> {
        synchronized (pubSubSubscriptions) {
          if (joined.leave(listener)) {
            pubSubSubscriptions.remove(id, joined);
            joined.close();
          }
        }
      };
    }
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    try (Jedis jedis = pool.getResource()) {
      List<byte[]> keys = new ArrayList<>();
      for (String topic : topics) {
        String recorded = jedis.get(RedisKeys.partitionCountKey(topic));
        Integer n = recorded != null ? Integer.valueOf(recorded) : partitionsByTopic.get(topic);
        if (n != null) {
          for (byte[] key : RedisKeys.partitions(topic, n)) {
            keys.add(key);
          }
        }
        keys.add(StreamFields.bytes(RedisKeys.partitionCountKey(topic)));
        partitionsByTopic.remove(topic);
      }
      if (!keys.isEmpty()) {
        jedis.del(keys.toArray(new byte[0][]));
      }
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The facts, with replication read again from the server: called once the run's streams exist, so
   * the result records the replicas online then, not at initialize.
   */
  @Override
  public Map<String, String> brokerFacts() {
    if (pool != null && !pool.isClosed()) {
      try (Jedis jedis = pool.getResource()) {
        facts.putAll(Replication.parse(jedis.info("replication")).facts(config.address()));
      }
    }
    return new TreeMap<>(facts);
  }

  /** The parsed driver file, after overrides (for tests and diagnostics). */
  RedisDriverConfig config() {
    return config;
  }

  @Override
  public void close() throws Exception {
    List<PubSubSubscription> open;
    synchronized (pubSubSubscriptions) {
      open = new ArrayList<>(pubSubSubscriptions.values());
      pubSubSubscriptions.clear();
    }
    for (PubSubSubscription s : open) {
      s.close();
    }
    if (pool != null) {
      pool.close();
    }
  }
}
