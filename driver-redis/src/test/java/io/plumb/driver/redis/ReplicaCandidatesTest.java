package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

/**
 * Which of the replicas a Sentinel lists a replica reader tries, in order ({@code SENTINEL
 * REPLICAS} replies as Jedis parses them). Whether the one it connects to is a replica is the
 * server's own answer, checked on the real cluster by RedisFaultClusterTest's weak-file partition.
 */
class ReplicaCandidatesTest {

  private static Map<String, String> replica(int port, String flags, String link) {
    return Map.of(
        "ip",
        "127.0.0.1",
        "port",
        String.valueOf(port),
        "flags",
        flags,
        "master-link-status",
        link);
  }

  @Test
  void linkedReplicasComeFirstAndDownOrDisconnectedOnesNever() {
    List<HostAndPort> candidates =
        RedisEndpoint.replicaCandidates(
            List.of(
                replica(6379, "slave", "err"),
                replica(6380, "slave,s_down", "ok"),
                replica(6381, "slave", "ok"),
                replica(6382, "slave,disconnected", "ok"),
                replica(6383, "slave,o_down", "ok")));
    assertEquals(
        List.of(new HostAndPort("127.0.0.1", 6381), new HostAndPort("127.0.0.1", 6379)),
        candidates);
  }

  @Test
  void noReplicaUpGivesNoCandidate() {
    assertEquals(
        List.of(), RedisEndpoint.replicaCandidates(List.of(replica(6380, "slave,s_down", "ok"))));
  }
}
