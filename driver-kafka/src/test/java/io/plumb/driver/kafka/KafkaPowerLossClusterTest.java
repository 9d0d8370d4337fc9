package io.plumb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.RunReport;
import io.plumb.testkit.LossAccounting;
import io.plumb.testkit.OneFault;
import io.plumb.testkit.SmokeRun;
import io.plumb.testkit.WholeCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power loss of every node of the local 3-node cluster on the power-loss layer ({@code
 * deploy/local/kafka.sh start --nodes 3 --power-loss-layer}; runs only with {@code -Pcluster}),
 * through the whole engine at 2,000 msg/s of 1 KB on one partition: every node is killed, then each
 * node's layer drops what the node had not fsynced, and all start again. What the fsync of {@code
 * kafka-replicated-sync.yaml} buys over {@code kafka-replicated.yaml}, which leaves flushing to the
 * operating system: with every page cache gone at once, no follower holds what the leader lost.
 *
 * <p>The consumer is kept behind on purpose. Keeping up, it receives every acknowledged message
 * within milliseconds, and a message received is not lost in Plumb's count whatever the broker does
 * with it later: both files would lose next to nothing and the durable file's zero would prove
 * nothing. Here it fetches once a second at most 1 MB, about 1,000 messages, half the producer's
 * rate (fetch.min.bytes the broker never reaches, so it answers after fetch.max.wait.ms): at the
 * power loss thousands of acknowledged messages are on the brokers only.
 */
class KafkaPowerLossClusterTest {
  private static final SmokeRun RUN = SmokeRun.oneStream(Duration.ofSeconds(10));

  private static final Map<String, String> CONSUMER_BEHIND =
      Map.of(
          "fetch.min.bytes", "104857600",
          "fetch.max.wait.ms", "1000",
          "max.partition.fetch.bytes", "1048576");

  /** Kafka's default flush.messages: never flush for a count of messages. */
  private static final String NO_FLUSH = "9223372036854775807";

  @TempDir Path scratch;

  @BeforeAll
  static void clusterIsOnTheLayer() throws Exception {
    LocalKafkaCluster.requirePowerLossLayers();
  }

  @RegisterExtension static final WholeCluster CLUSTER = LocalKafkaCluster.WHOLE_FOR_EACH_TEST;

  @Test
  void syncFileLosesNoAcknowledgedMessageWhenEveryNodeLosesPower() throws Exception {
    RunReport report = powerLoss("kafka-replicated-sync.yaml");

    Map<String, String> facts = report.brokerFacts();
    assertTrue(facts.get("topic.flush.messages").startsWith("1 "), facts.toString());
    assertTrue(facts.get("topic.flush.ms").startsWith("0 "), facts.toString());
    LossAccounting.assertNothingAtRiskLost(report, 1, "kafka-replicated-sync.yaml");
  }

  @Test
  void defaultFlushLosesWhatNoNodeHadFsyncedAndCountsItExactly() throws Exception {
    RunReport report = powerLoss("kafka-replicated.yaml");

    Map<String, String> facts = report.brokerFacts();
    assertTrue(facts.get("topic.flush.messages").startsWith(NO_FLUSH + " "), facts.toString());
    LossAccounting.assertUnsyncedLossCountedExactly(report, "kafka-replicated.yaml");
  }

  /** {@code driverFile} through {@link #plan}: the run completes, its power loss applied. */
  private RunReport powerLoss(String driverFile) throws Exception {
    return LossAccounting.assertCompleteWithFaultApplied(
        RUN.runWithFaults(Path.of(driverFile), plan(), CONSUMER_BEHIND, scratch));
  }

  /**
   * Every node loses power 5 s into the 10 s measured phase and all start again 5 s later;
   * consumers idle for 10 s end the drain (what is missing then stays missing).
   */
  private Path plan() throws Exception {
    return new OneFault("power-loss", "all", 5, 5, 10)
        .writeTo(scratch.resolve("power-loss-all.yaml"));
  }
}
