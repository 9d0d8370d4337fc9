package io.plumb.driver.redis;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import redis.clients.jedis.HostAndPort;

/**
 * The settings of one Redis driver file. Field names follow OpenMessaging Benchmark's Redis driver
 * ({@code redisHost}, {@code redisPort}, {@code redisUser}, {@code redisPass}, {@code
 * jedisPoolMaxTotal}, {@code jedisPoolMaxIdle}) so its files run unchanged; the rest are Plumb's. A
 * missing field takes the default given here.
 *
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
 * @param maxBlockMillis how long send() waits for room at most; then it fails the send, and every
 *     later one at once until room appears
 * @param maxLen approximate stream length cap per partition (XADD MAXLEN ~), 0 for none
 * @param readBatchSize entries a stream consumer reads per XREADGROUP (COUNT)
 * @param readBlockMillis how long XREADGROUP waits for new entries (BLOCK)
 * @param appendonly server setting applied at start: {@code yes}, {@code no}, or absent to leave
 *     the server as it is
 * @param appendfsync server setting applied at start: {@code always}, {@code everysec}, {@code no},
 *     or absent
 * @param waitReplicas replicas that must confirm each producer batch ({@code WAIT}), 0 for no WAIT
 * @param waitTimeoutMillis how long a WAIT blocks at most; fewer replicas by then fail the batch
 * @param sentinels Redis Sentinels ({@code host:port}) that name the primary; empty to use {@code
 *     redisHost}/{@code redisPort} as the one server
 * @param sentinelMaster the master name the Sentinels monitor
 * @param consumeFrom where stream consumers read: the primary (consumer groups) or a replica
 * @param producer the producer's sender: {@code resp}, the hand-written RESP pipeline (default), or
 *     {@code jedis}, Jedis's own pipelining, kept to measure the difference
 */
public record RedisDriverConfig(
    String redisHost,
    Integer redisPort,
    String redisUser,
    String redisPass,
    Integer jedisPoolMaxTotal,
    Integer jedisPoolMaxIdle,
    Mode mode,
    Integer pipelineDepth,
    Integer maxPendingSends,
    Integer maxBlockMillis,
    Long maxLen,
    Integer readBatchSize,
    Integer readBlockMillis,
    String appendonly,
    String appendfsync,
    Integer waitReplicas,
    Integer waitTimeoutMillis,
    List<String> sentinels,
    String sentinelMaster,
    ConsumeFrom consumeFrom,
    Producer producer) {

  /** The producer's sender. */
  public enum Producer {
    RESP,
    JEDIS;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Where stream consumers read. {@code primary}: consumer groups (XREADGROUP, XACK) on the
   * primary. {@code replica}: XREAD from a replica the Sentinels list, positions kept by the
   * driver; a consumer sees only what reached a replica.
   */
  public enum ConsumeFrom {
    PRIMARY,
    REPLICA;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Redis Streams or Pub/Sub. */
  public enum Mode {
    STREAMS,
    PUBSUB;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Reads the file's settings with environment values ({@code variableToField}) beneath the command
   * line's. Missing fields take the defaults written here.
   */
  static RedisDriverConfig read(
      DriverSettings file, Map<String, String> environment, Map<String, String> variableToField)
      throws DriverConfigException {
    DriverSettings s = file.withEnvironment(environment, variableToField);
    String host = s.string("redisHost", "").strip();
    int port = s.integerAtLeast("redisPort", 1, 6379);
    if (port > 65535) {
      throw s.error("redisPort", "must be <= 65535, was " + port);
    }
    String user = s.string("redisUser", "");
    String pass = s.string("redisPass", "");
    int poolMaxTotal = s.integerAtLeast("jedisPoolMaxTotal", 1, 8);
    int poolMaxIdle = s.integerAtLeast("jedisPoolMaxIdle", 0, 8);
    Mode mode = s.enumValue("mode", Mode.class, Mode.STREAMS);
    int pipelineDepth = s.integerAtLeast("pipelineDepth", 1, 16);
    int maxPendingSends = s.integerAtLeast("maxPendingSends", 1, 1024);
    long maxLen = s.longValue("maxLen", 0L);
    if (maxLen < 0) {
      throw s.error("maxLen", "must be >= 0 (0: no cap), was " + maxLen);
    }
    int waitReplicas = s.integerAtLeast("waitReplicas", 0, 0);
    if (waitReplicas > 0 && mode != Mode.STREAMS) {
      throw s.error(
          "waitReplicas", "applies to mode streams only: Pub/Sub stores nothing to replicate");
    }
    List<String> sentinels = new ArrayList<>();
    for (String item : s.list("sentinels", List.of())) {
      String a = item.strip();
      if (!a.isEmpty()) {
        if (!a.matches("[^:\\s]+:\\d{1,5}")) {
          throw s.error("sentinels", "'" + a + "' is not host:port");
        }
        sentinels.add(a);
      }
    }
    if (!sentinels.isEmpty()) {
      for (String field : new String[] {"redisHost", "redisPort"}) {
        if (s.has(field)) {
          throw s.error(
              field, "not used with 'sentinels', which name the primary: remove one of the two");
        }
      }
    }
    String sentinelMaster = s.string("sentinelMaster", "plumb").strip();
    if (sentinelMaster.isEmpty()) {
      throw s.error("sentinelMaster", "must name the master the Sentinels monitor");
    }
    ConsumeFrom consumeFrom = s.enumValue("consumeFrom", ConsumeFrom.class, ConsumeFrom.PRIMARY);
    if (consumeFrom == ConsumeFrom.REPLICA) {
      if (mode != Mode.STREAMS) {
        throw s.error("consumeFrom", "replica applies to mode streams only");
      }
      if (sentinels.isEmpty()) {
        throw s.error(
            "consumeFrom", "replica needs 'sentinels': replicas are found through Sentinel");
      }
    }
    RedisDriverConfig config =
        new RedisDriverConfig(
            host.isEmpty() ? "127.0.0.1" : host,
            port,
            user.isEmpty() ? null : user,
            pass.isEmpty() ? null : pass,
            poolMaxTotal,
            poolMaxIdle,
            mode,
            pipelineDepth,
            maxPendingSends,
            s.integerAtLeast("maxBlockMillis", 1, 1000),
            maxLen,
            s.integerAtLeast("readBatchSize", 1, 500),
            s.integerAtLeast("readBlockMillis", 1, 100),
            oneOf(s, "appendonly", "yes", "no"),
            oneOf(s, "appendfsync", "always", "everysec", "no"),
            waitReplicas,
            // WAIT's 0 would mean forever: a stalled replica would hang the producer silently.
            s.integerAtLeast("waitTimeoutMillis", 1, 1000),
            List.copyOf(sentinels),
            sentinelMaster,
            consumeFrom,
            s.enumValue("producer", Producer.class, Producer.RESP));
    s.finish();
    return config;
  }

  /** A server setting in Redis's words; YAML may have turned yes/no into booleans. */
  private static String oneOf(DriverSettings s, String field, String... allowed)
      throws DriverConfigException {
    String value = s.string(field).orElse(null);
    if (value == null) {
      return null;
    }
    String v =
        switch (value.strip().toLowerCase(Locale.ROOT)) {
          case "true" -> "yes";
          case "false" -> "no";
          default -> value.strip().toLowerCase(Locale.ROOT);
        };
    for (String a : allowed) {
      if (a.equals(v)) {
        return v;
      }
    }
    throw s.error(field, "'" + v + "' is not one of " + String.join(", ", allowed));
  }

  /** The WAIT after each producer batch, or null for none. */
  ReplicaWait replicaWait() {
    return waitReplicas > 0 ? new ReplicaWait(waitReplicas, waitTimeoutMillis) : null;
  }

  /** host:port, for messages. */
  String address() {
    return redisHost + ":" + redisPort;
  }

  /** The Sentinels' addresses, in the file's order; empty without Sentinels. */
  List<HostAndPort> sentinelAddresses() {
    return sentinels.stream().map(HostAndPort::from).toList();
  }
}
