package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.RunReport;
import io.plumb.testkit.BacklogSmokeRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog workload through the whole engine on the local standalone broker with the shipped
 * {@code pulsar.yaml}: the consumer pauses (the client stops granting the broker permits) while
 * 5,120 messages of 1 KiB pile up on the durable subscription, then resumes and drains them, with
 * every message received exactly once.
 *
 * <p>The receiver queue is 1,000 messages per partition rather than the file's 10,000: what the
 * broker already had permits for still arrives after the pause (see {@link PulsarConsumer#pause}),
 * up to 30,000 messages over 3 partitions with the file's queue, 7.5 s at this rate before the
 * backlog starts to grow (the build took 8.1 s); 3,000 keeps the test short without changing what
 * it checks.
 */
class PulsarBacklogTest {
  @TempDir Path dir;

  @Test
  void consumersPauseWhileTheBacklogBuildsThenDrainIt() {
    BacklogSmokeRun run =
        BacklogSmokeRun.run(
            Path.of("pulsar.yaml"),
            dir,
            RunOptions.defaults().withDriverOverrides(Map.of("consumer.receiverQueueSize", "1000")),
            RunListener.SILENT);
    assertEquals(List.of(), run.problems());
    RunReport report = run.report();
    // Nothing on the local broker can take the backlog away: no quota, no TTL (read back).
    Map<String, String> facts = report.brokerFacts();
    assertEquals(
        "none (broker defaults backlogQuotaDefaultLimitBytes=-1, backlogQuotaDefaultLimitSecond=-1)",
        facts.get(BrokerLimits.QUOTA_FACT),
        facts.toString());
    assertEquals(
        "none (broker default ttlDurationDefaultInSeconds=0)",
        facts.get(BrokerLimits.TTL_FACT),
        facts.toString());
    // Pulsar's default 5 MiB, less the room kept for metadata: what a workload may ask for.
    assertEquals(
        String.valueOf(5 * 1024 * 1024 - BrokerLimits.METADATA_BYTES),
        facts.get(io.plumb.driver.BrokerFactNames.MAX_MESSAGE_BYTES),
        facts.toString());
  }
}
