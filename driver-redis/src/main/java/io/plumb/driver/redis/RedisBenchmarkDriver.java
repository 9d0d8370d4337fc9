package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.ClientWindow;
import io.plumb.driver.DriverAliases;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.FinalReader;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SingleRoleLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Redis driver: Redis Streams (XADD, consumer groups with XREADGROUP and XACK) or Pub/Sub, chosen
 * by the driver file's {@code mode}. A topic's partitions are the keys {@code topic-0 ..
 * topic-N-1}; see {@link RedisKeys}. Durability settings in the file are applied to the server at
 * initialize and read back (see {@link Durability}).
 *
 * <p>Each producer and consumer holds its own connection (a blocking XREADGROUP or a SUBSCRIBE
 * occupies one); the pool sized by OMB's {@code jedisPool*} fields serves administrative commands.
 * With {@code sentinels} in the file, all of them go to the primary Redis Sentinel names and move
 * to the new one after a failover (see {@link RedisEndpoint}).
 *
 * <p>As a {@link FinalReader}, streams are read to their last entry after the run ({@link
 * StreamFinalRead}); Pub/Sub keeps nothing to read.
 *
 * <p>In streams mode Plumb's header can travel as an entry field of its own ({@link StreamHeader}),
 * so messages may be smaller than the header; Pub/Sub messages have no fields.
 */
@DriverAliases({"io.openmessaging.benchmark.driver.redis.RedisBenchmarkDriver"})
public final class RedisBenchmarkDriver implements BenchmarkDriver, SingleRoleLocator, FinalReader {

  /** Environment variables that override {@code redisHost} and {@code redisPort} of the file. */
  public static final String HOST_ENV = "REDIS_HOST";

  public static final String PORT_ENV = "REDIS_PORT";

  private RedisDriverConfig config;
  private RedisEndpoint endpoint;
  private final Map<String, Integer> partitionsByTopic = new ConcurrentHashMap<>();
  private final SharedSubscriptions<PubSubSubscription> pubSubSubscriptions =
      new SharedSubscriptions<>();
  private final SharedSubscriptions<ReplicaSubscription> replicaSubscriptions =
      new SharedSubscriptions<>();
  private final RedisBrokerFacts facts = new RedisBrokerFacts();

  @Override
  public void initialize(DriverConfig driverConfig) throws Exception {
    Map<String, String> envToField = new java.util.LinkedHashMap<>();
    envToField.put(HOST_ENV, "redisHost");
    envToField.put(PORT_ENV, "redisPort");
    config =
        RedisDriverConfig.read(driverConfig.settings(), driverConfig.environment(), envToField);
    try {
      endpoint = RedisEndpoint.open(config);
    } catch (JedisException e) {
      throw new BrokerUnreachableException(
          driverConfig.settings().file(),
          "Redis Sentinel (master '" + config.sentinelMaster() + "')",
          String.join(",", config.sentinels()),
          BrokerUnreachableException.describe(e),
          "deploy/local/redis.sh start --nodes 3",
          "--driver-set sentinels=HOST:PORT,...");
    }
    try (Jedis jedis = endpoint.pool().getResource()) {
      facts.gather(jedis, config, endpoint, driverConfig);
    } catch (JedisConnectionException e) {
      endpoint.close();
      throw new BrokerUnreachableException(
          driverConfig.settings().file(),
          "Redis",
          endpoint.describe(),
          BrokerUnreachableException.describe(e),
          "deploy/local/redis.sh start",
          "--driver-set redisHost=HOST --driver-set redisPort=PORT, or "
              + HOST_ENV
              + " and "
              + PORT_ENV);
    } catch (Exception e) {
      endpoint.close();
      throw e;
    }
  }

  /**
   * The primary, as the broker says it now: a majority of the Sentinels ({@code SENTINEL
   * get-master-addr-by-name}), or without Sentinels the one server (or, if it is a replica, its
   * primary). Redis replicates the whole data set, so the topic does not matter.
   */
  @Override
  public Optional<String> leaderOf(String topic) {
    return endpoint.primaryNow();
  }

  /** Redis has a primary and its replicas, no leader: the words say so. */
  @Override
  public Role role() {
    return new Role("primary", "primary", "replicas of the primary");
  }

  /** A new dedicated connection to the primary, for a Pub/Sub subscriber. */
  private Jedis connectPrimary() {
    return endpoint.connectPrimary();
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    if (partitions < 1) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("partitions must be >= 1, was " + partitions));
    }
    try (Jedis jedis = endpoint.pool().getResource()) {
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
    try (Jedis jedis = endpoint.pool().getResource()) {
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
      if (config.producer() == RedisDriverConfig.Producer.JEDIS) {
        JedisPipelineProducer producer =
            new JedisPipelineProducer(
                endpoint::openProducer,
                endpoint.primaryToFollow(),
                config.mode() == RedisDriverConfig.Mode.STREAMS,
                topic,
                n,
                config.maxLen(),
                config.pipelineDepth(),
                config.maxPendingSends(),
                config.maxBlockMillis(),
                config.replicaWait());
        return watched(producer);
      }
      PipelinedProducer producer =
          new PipelinedProducer(
              endpoint::openProducer,
              endpoint.primaryToFollow(),
              encoder,
              topic,
              n,
              config.pipelineDepth(),
              config.maxPendingSends(),
              config.maxBlockMillis(),
              config.replicaWait());
      return watched(producer);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** {@code producer}, told of each primary change until it closes, whichever client it uses. */
  private CompletableFuture<BenchmarkProducer> watched(PrimaryFollowingProducer producer) {
    producer.unwatchOnClose(endpoint.onPrimaryChange(producer::primaryChanged));
    return CompletableFuture.completedFuture(producer);
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    try {
      int partitions = partitions(topic);
      if (config.mode() == RedisDriverConfig.Mode.STREAMS
          && config.consumeFrom() == RedisDriverConfig.ConsumeFrom.REPLICA) {
        return CompletableFuture.completedFuture(
            joinReplicaReader(topic, subscription, partitions, listener));
      }
      if (config.mode() == RedisDriverConfig.Mode.STREAMS) {
        String member = subscription + "-" + UUID.randomUUID().toString().substring(0, 8);
        StreamConsumer consumer =
            new StreamConsumer(
                endpoint::openConsumer,
                endpoint.primaryToFollow(),
                topic,
                partitions,
                subscription,
                member,
                config.readBatchSize(),
                config.readBlockMillis(),
                listener);
        consumer.unwatchOnClose(endpoint.onPrimaryChange(consumer::primaryChanged));
        return CompletableFuture.completedFuture(consumer);
      }
      return CompletableFuture.completedFuture(
          joinPubSub(topic, subscription, partitions, listener));
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * A member of the subscription's Pub/Sub reader; it cannot pause (see {@link
   * PubSubSubscription}).
   */
  private BenchmarkConsumer joinPubSub(
      String topic, String subscription, int partitions, MessageListener listener)
      throws Exception {
    BenchmarkConsumer membership =
        pubSubSubscriptions.join(
            topic,
            subscription,
            listener,
            () -> new PubSubSubscription(connectPrimary(), topic, partitions));
    return new BenchmarkConsumer() {
      @Override
      public void pause() {
        throw new UnsupportedOperationException(PubSubSubscription.CANNOT_PAUSE);
      }

      @Override
      public void resume() {
        throw new UnsupportedOperationException(PubSubSubscription.CANNOT_PAUSE);
      }

      @Override
      public void close() throws Exception {
        membership.close();
      }
    };
  }

  private BenchmarkConsumer joinReplicaReader(
      String topic, String subscription, int partitions, MessageListener listener)
      throws Exception {
    return replicaSubscriptions.join(
        topic,
        subscription,
        listener,
        () ->
            new ReplicaSubscription(
                endpoint::openReplica,
                topic,
                partitions,
                config.readBatchSize(),
                config.readBlockMillis()));
  }

  @Override
  public Optional<String> whyNoFinalRead() {
    return config.mode() == RedisDriverConfig.Mode.STREAMS
        ? Optional.empty()
        : Optional.of("Redis Pub/Sub keeps no messages");
  }

  /**
   * Reads every partition's stream from its first entry to its last, on the primary a majority of
   * the Sentinels names now rather than the pool's ({@link RedisEndpoint#connectAgreedPrimary}).
   */
  @Override
  public String readToEnd(String topic, String subscription, MessageListener sink, Duration timeout)
      throws Exception {
    requireFinalRead();
    int partitions = partitions(topic);
    try (Jedis jedis = endpoint.connectAgreedPrimary(timeout)) {
      return StreamFinalRead.read(jedis, topic, partitions, sink, timeout);
    }
  }

  @Override
  public CompletableFuture<Void> deleteTopics(List<String> topics) {
    try (Jedis jedis = endpoint.pool().getResource()) {
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
   * the result records the replicas online then, not at initialize; and the windows ({@link
   * RedisWindows}).
   */
  @Override
  public Map<String, String> brokerFacts() {
    Map<String, String> all = facts.withReplicationNow(endpoint);
    if (config != null) {
      all.putAll(RedisWindows.facts(config, ClientWindow.mostPartitions(partitionsByTopic)));
    }
    return all;
  }

  /** The parsed driver file, after overrides (for tests and diagnostics). */
  RedisDriverConfig config() {
    return config;
  }

  @Override
  public void close() throws Exception {
    pubSubSubscriptions.closeAll();
    replicaSubscriptions.closeAll();
    if (endpoint != null) {
      endpoint.close();
    }
  }
}
