package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.testkit.WholeCluster;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The 3-node cluster of {@code deploy/local/redis.sh start --nodes 3} is whole: every Sentinel
 * names the same primary, which has both other servers online as replicas.
 */
final class RedisClusterWhole {
  private static final long WAIT_SECONDS = 90;

  /**
   * What a cluster test registers ({@code @RegisterExtension}): the cluster of the Sentinels on
   * {@link LocalSentinels#PORT} whole before each test and after the last.
   */
  static final WholeCluster FOR_EACH_TEST =
      WholeCluster.beforeEachTest(() -> await(LocalSentinels.PORT));

  private RedisClusterWhole() {}

  /** Waits up to 90 s for a whole cluster whose first Sentinel is on {@code sentinelPort}. */
  static void await(int sentinelPort) throws InterruptedException {
    String last = "";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (System.nanoTime() < deadline) {
      try {
        Set<String> named = new HashSet<>();
        for (int s = 0; s < 3; s++) {
          try (Jedis sentinel = new Jedis("127.0.0.1", sentinelPort + s)) {
            List<String> addr = sentinel.sentinelGetMasterAddrByName("plumb");
            named.add(addr.get(0) + ":" + addr.get(1));
          }
        }
        if (named.size() == 1) {
          String primary = named.iterator().next();
          try (Jedis jedis = new Jedis(HostAndPort.from(primary))) {
            Replication r = Replication.parse(jedis.info("replication"));
            if (!r.isReplica() && r.onlineReplicas().size() == 2) {
              return;
            }
            last = primary + ": " + r;
          }
        } else {
          last = "Sentinels name " + named;
        }
      } catch (JedisException e) {
        last = e.toString();
      }
      Thread.sleep(250);
    }
    fail(
        "the Redis cluster is not whole after "
            + WAIT_SECONDS
            + " s ("
            + last
            + "): deploy/local/redis.sh status");
  }
}
