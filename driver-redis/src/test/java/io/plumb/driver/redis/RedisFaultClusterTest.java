package io.plumb.driver.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.fault.ClusterNode;
import io.plumb.fault.FaultOutcome;
import io.plumb.fault.LocalCluster;
import io.plumb.result.RunReport;
import io.plumb.testkit.OneFault;
import io.plumb.testkit.SmokeRun;
import io.plumb.testkit.WholeCluster;
import io.plumb.worker.DriverSettingsReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Faults against the 3-node cluster of {@code deploy/local/redis.sh start --nodes 3} (a server and
 * a Sentinel on each node), through the framework's fault plans: the leader the driver names, the
 * durable file under a kill of the primary, and the weak file under a partition of the primary,
 * which must lose acknowledged messages. Each test starts and ends with the cluster whole: three
 * servers, a primary with two replicas online, and every Sentinel naming it.
 */
class RedisFaultClusterTest {

  /** One producer and one consumer on one stream, 30 s measured. */
  private static final SmokeRun RUN = SmokeRun.oneStream(Duration.ofSeconds(30));

  /**
   * The same for 40 s, for the kill: 10 s before it give a pre-fault level that holds this shared
   * machine's noise, and the node restarted 20 s later leaves the failover's recovery undisturbed
   * by its full resync.
   */
  private static final SmokeRun LONGER = SmokeRun.oneStream(Duration.ofSeconds(40));

  @TempDir Path scratch;

  @RegisterExtension static final WholeCluster CLUSTER = RedisClusterWhole.FOR_EACH_TEST;

  @Test
  void leaderIsThePrimaryTheSentinelsNameAndFollowsAFailover() throws Exception {
    LocalCluster cluster = LocalCluster.of("redis");
    RedisBenchmarkDriver driver = new RedisBenchmarkDriver();
    driver.initialize(
        DriverSettingsReader.config(Path.of("redis-replicated.yaml"), LocalSentinels.overrides()));
    try {
      assertEquals("primary", driver.targets().get("primary"));
      String before = driver.leaderOf("any-topic").orElseThrow();
      assertEquals("127.0.0.1:" + primaryPort(), before);
      ClusterNode leader = nodeNamed(cluster, before);
      assertEquals("127.0.0.1:" + leader.values().get("PORT"), leader.values().get("NAME"));

      script("stop-node", leader.name());
      String after = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (System.nanoTime() < deadline) {
        Optional<String> now = driver.leaderOf("any-topic");
        if (now.isPresent() && !now.get().equals(before)) {
          after = now.get();
          break;
        }
        Thread.sleep(200);
      }
      assertNotNull(after, "the leader is still " + before + " 30 s after its node stopped");
      ClusterNode next = nodeNamed(cluster, after);
      assertNotEquals(leader.name(), next.name());
    } finally {
      driver.close();
      script("start-node", "1");
      script("start-node", "2");
      script("start-node", "3");
    }
  }

  /**
   * Two topics (two streams), so a fault's figures must keep each topic's messages to its own
   * subscription: counted across topics, every message of one stream was "lost" for the other's.
   */
  @Test
  void durableFileLosesNothingWhenThePrimaryIsKilled() throws Exception {
    Path plan = plan("kill", 10, 20);
    RunReport report =
        LONGER.runWithFaults(
            2, Path.of("redis-replicated.yaml"), plan, LocalSentinels.overrides(), scratch);
    assertTrue(report.complete(), report.errors().toString());
    assertEquals(0, report.counters().lost(), "acknowledged then lost: " + report.faults());
    assertTrue(report.counters().acknowledged() > 60_000, report.counters().toString());
    assertEquals(0, report.beforeFirstFault().acknowledgedLost(), report.toString());
    assertEquals(1, report.faults().size(), report.faults().toString());
    for (FaultOutcome f : report.faults()) {
      assertNull(f.error(), f.toString());
      assertEquals("primary", f.leaderMeaning(), f.toString());
      assertNotNull(f.unavailableSeconds(), "unavailability: " + f);
      assertTrue(f.availableAgain(), f.toString());
      assertNotNull(f.recoverySeconds(), "recovery: " + f);
      assertEquals(0, f.acknowledgedLost(), f.toString());
    }
  }

  /**
   * The weak file under a partition of the primary with its own Sentinel: the producer keeps
   * writing to the old primary, which acknowledges at once (no WAIT), until the other two Sentinels
   * promote a replica and the driver moves (2 s down-after and the election); the consumer reads a
   * replica, which never gets those writes; the healed old primary becomes a replica and discards
   * them. At 2,000 msg/s that is a thousand acknowledged messages lost or more, every time.
   *
   * <p>The partition lasts 25 s of the 30, not the 3 s a failover takes, because two Sentinel rules
   * can each hold the failover back by 10 s (twice failover-timeout with redis.sh): a Sentinel that
   * led or voted in the previous test's failover starts no other until then, and two Sentinels that
   * ask for votes at once split them, both abort, and try again only then. A partition that heals
   * first lets the replicas catch up, and the late failover loses nothing (CI saw that twice, with
   * 10 s and 15 s partitions). 2 s of down-after, one split election and its retry fit in 14 s.
   *
   * <p>The consumer must stay off the old primary: right after the promotion a Sentinel lists the
   * old primary among the new one's replicas, and a reader that reconnected there (a replica
   * changing primaries drops its blocked readers) read every write the old primary acknowledged, so
   * CI once saw 0 lost. The driver now asks the server itself whether it is a replica.
   */
  @Test
  void weakFileLosesAcknowledgedMessagesWhenThePrimaryIsPartitioned() throws Exception {
    Path plan = plan("partition", 3, 25);
    RunReport report =
        RUN.runWithFaults(
            Path.of("redis-replicated-weak.yaml"), plan, LocalSentinels.overrides(), scratch);
    assertEquals(1, report.faults().size(), report.faults().toString());
    FaultOutcome f = report.faults().get(0);
    assertNull(f.error(), f.toString());
    assertEquals(0, report.counters().failed(), "no WAIT, nothing fails: " + f);
    long lost = report.counters().lost();
    System.out.println("redis-replicated-weak.yaml, partition of the primary: lost " + lost);
    // What the old primary acknowledged from the partition until the driver followed the
    // promotion: 0.9 to 5 s of writes in CI's runs (1,782 to 9,895 lost at 2,000 msg/s), so at
    // least half a second of them.
    assertTrue(
        lost > 1_000, "acknowledged then lost: " + lost + "; " + f + "; " + sentinelElections());
    assertEquals(
        lost, f.acknowledgedLost() + report.beforeFirstFault().acknowledgedLost(), f.toString());
    assertTrue(f.acknowledgedLost() > 1_000, "lost in the fault's own window: " + f);
  }

  /**
   * Each Sentinel's election lines (failover attempts, votes, aborts, promotions), so that a
   * failover that came late or never says why in the failure itself.
   */
  private static String sentinelElections() {
    StringBuilder lines = new StringBuilder("Sentinel elections:");
    for (ClusterNode node : LocalCluster.of("redis").numberedNodes()) {
      String log = node.values().get("SENTINEL_LOG");
      if (log == null || !Files.isReadable(Path.of(log))) {
        continue;
      }
      try {
        List<String> elections =
            Files.readAllLines(Path.of(log)).stream()
                .filter(l -> ELECTION.matcher(l).find())
                .toList();
        elections.stream()
            .skip(Math.max(0, elections.size() - 12))
            .forEach(l -> lines.append("\n  node ").append(node.name()).append(": ").append(l));
      } catch (IOException e) {
        lines.append("\n  node ").append(node.name()).append(": ").append(e);
      }
    }
    return lines.toString();
  }

  private static final Pattern ELECTION =
      Pattern.compile(
          "try-failover|vote-for-leader|elected-leader|failover-abort|switch-master|Next failover");

  /** A plan of one fault on the leader, {@code at} s into the measured phase, for {@code s} s. */
  private Path plan(String action, int at, int seconds) throws Exception {
    return new OneFault(action, "primary", at, seconds, 10)
        .writeTo(scratch.resolve(action + "-leader.yaml"));
  }

  private static ClusterNode nodeNamed(LocalCluster cluster, String identity) {
    return cluster.numberedNodes().stream()
        .filter(n -> n.answersTo(identity))
        .findFirst()
        .orElseThrow(() -> new AssertionError(identity + " is no node of " + cluster.nodes()));
  }

  private static void script(String command, String node) throws Exception {
    Path script = LocalCluster.of("redis").script();
    Process p =
        new ProcessBuilder(script.toString(), command, node)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      fail(script + " " + command + " " + node + " failed");
    }
  }

  /** The primary's port as the first Sentinel names it. */
  private static int primaryPort() {
    try (Jedis sentinel = new Jedis("127.0.0.1", LocalSentinels.PORT)) {
      return Integer.parseInt(sentinel.sentinelGetMasterAddrByName("plumb").get(1));
    }
  }
}
