package io.plumb.driver.redis;

import static io.plumb.testkit.ResultReading.acknowledgedNotReceivedBefore;
import static io.plumb.testkit.ResultReading.summary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.fault.ClusterNode;
import io.plumb.fault.FaultOutcome;
import io.plumb.fault.FaultPlan;
import io.plumb.fault.LocalCluster;
import io.plumb.result.RunReport;
import io.plumb.testkit.FaultRunWorkload;
import io.plumb.testkit.LossAccounting;
import io.plumb.testkit.OneFault;
import io.plumb.testkit.WholeCluster;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power loss of every node of the local 3-node cluster on the power-loss layer ({@code
 * deploy/local/redis.sh start --nodes 3 --power-loss-layer}; runs only with {@code -Pcluster}),
 * through the whole engine at 2,000 msg/s of 1 KB on one stream: every server is killed, then each
 * node's layer drops what its server had not fsynced, and all start again, the primary from its own
 * AOF. What {@code appendfsync always} buys over {@code appendfsync no}: with every node's page
 * cache gone at once, no replica holds what the primary lost.
 *
 * <p>The consumer is paused while the power loss happens (a backlog workload: consumers pause at
 * the start of the measured phase until 16,000 messages wait, then drain them). Keeping up, it
 * would receive every acknowledged message within milliseconds, and a message received is not lost
 * in Plumb's count whatever the server does with it later: both files would lose next to nothing
 * and the durable file's zero would prove nothing. Paused, every message acknowledged in the 4 s
 * before the power loss is on the servers only.
 */
class RedisPowerLossClusterTest {

  /** 16,000 messages of 1 KB, in GiB: reached once production goes on after the restart. */
  private static final double BACKLOG_GB = 16_000 * 1024 / (1024.0 * 1024 * 1024);

  @TempDir Path scratch;

  @BeforeAll
  static void clusterIsOnTheLayer() {
    for (ClusterNode node : LocalCluster.of("redis").numberedNodes()) {
      if (node.powerLossLayer().isEmpty()) {
        fail(
            "redis "
                + node
                + " has no power-loss layer ("
                + node.envFile()
                + "): start the cluster with deploy/local/redis.sh start --nodes 3"
                + " --power-loss-layer");
      }
    }
  }

  @RegisterExtension static final WholeCluster CLUSTER = RedisClusterWhole.FOR_EACH_TEST;

  @Test
  void aofAlwaysLosesNoAcknowledgedMessageWhenEveryNodeLosesPower() throws Exception {
    RunReport report = powerLoss("redis-replicated-aof-always.yaml");

    assertEveryServerHas(report, "always");
    Map<String, String> facts = report.brokerFacts();
    assertTrue(facts.get("redis.configRewrite").startsWith("every server"), facts.toString());
    LossAccounting.assertNothingAtRiskLost(report, 1_001, "redis-replicated-aof-always.yaml");
  }

  @Test
  void aofNoLosesWhatNoServerHadFsyncedAndCountsItExactly() throws Exception {
    RunReport report = powerLoss("redis-replicated-aof-no.yaml");

    assertEveryServerHas(report, "no");
    String summary = summary(report);
    FaultOutcome fault = report.faults().get(0);
    long atRisk = acknowledgedNotReceivedBefore(report, fault.appliedSeconds());
    assertTrue(atRisk > 1_000, "only " + atRisk + " at risk at the power loss: " + summary);
    // Gone is what no server had fsynced. With appendfsync no, Redis fsyncs the AOF only when it
    // rewrites it (the new base file: a replica's full resync, the automatic rewrite once the file
    // doubles), so what the last rewrite held survives and the rest since is lost.
    LossAccounting.assertUnsyncedLossCountedExactly(report, "redis-replicated-aof-no.yaml");
  }

  /**
   * The run's facts say the primary and both replicas had {@code appendfsync}: the loss a test
   * expects follows from that setting on every server.
   */
  private static void assertEveryServerHas(RunReport report, String appendfsync) {
    Map<String, String> facts = report.brokerFacts();
    assertEquals(appendfsync, facts.get("redis.appendfsync"), facts.toString());
    assertEquals(
        2,
        occurrences(facts.get("redis.replicaDurability"), "appendfsync=" + appendfsync),
        summary(report));
  }

  /** {@link #run} of {@code driverFile}: the run completes, its power loss applied. */
  private RunReport powerLoss(String driverFile) throws Exception {
    return LossAccounting.assertCompleteWithFaultApplied(run(driverFile));
  }

  /**
   * {@code driverFile} with 2 s of warm-up, then the consumer paused until the backlog is built, a
   * power loss of every node 4 s into that, all nodes started again 5 s later, and 5 s more once
   * the consumer drains; a consumer idle for 10 s ends the final drain.
   */
  private RunReport run(String driverFile) throws Exception {
    // backlogDrainRatio 0: the build ends after the restart; the consumer need not drain before the
    // 5 s go on.
    Path workload =
        new FaultRunWorkload(
                "power-loss-backlog",
                2000,
                2,
                5,
                List.of("consumerBacklogSizeGB: " + BACKLOG_GB, "backlogDrainRatio: 0"))
            .writeTo(scratch.resolve("power-loss-backlog.yaml"));
    Path plan =
        new OneFault("power-loss", "all", 4, 5, 10).writeTo(scratch.resolve("power-loss-all.yaml"));
    RunOptions options =
        RunOptions.defaults()
            .withFaultPlan(FaultPlan.read(plan))
            .withDriverOverrides(LocalSentinels.overrides())
            .withPeriod(Duration.ofSeconds(1));
    return new BenchmarkRun(
            WorkloadReader.read(workload),
            Path.of(driverFile),
            new LocalWorker(),
            options,
            RunListener.SILENT)
        .execute();
  }

  /** How often {@code part} occurs in {@code text}, e.g. a setting read back from each replica. */
  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
      count++;
    }
    return count;
  }
}
