package io.plumb.cli;

import static io.plumb.cli.OneLineRefusal.assertRefusedInOneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog workload whose backlog the driver's topics cannot keep is refused before any topic
 * exists, with one line naming the field, the backlog's share of a partition or topic, the cap and
 * the setting; otherwise the broker would discard the oldest of the backlog unread and the run
 * count them as lost. A backlog of 0.0001 GB is 107,374 bytes: 1,074 messages of 100 bytes.
 */
class BacklogRetentionRefusalTest {
  @TempDir Path dir;

  @Test
  void aBacklogAboveAPartitionsCapIsRefused() throws Exception {
    Path workload = backlogWorkload(100, 1);
    assertRefused(
        workload,
        "1,074 messages in each partition, and Capped ("
            + driverFile()
            + ") keeps 537 before the broker discards the oldest");
  }

  @Test
  void aBacklogAboveATopicsMessageCapIsRefused() throws Exception {
    // 99 bytes: 1,085 messages, 362 a partition.
    Path workload = backlogWorkload(99, 3);
    assertRefused(
        workload,
        "1,085 messages in each topic, and Capped ("
            + driverFile()
            + ") keeps 1,074 before the broker discards the oldest");
  }

  @Test
  void bodiesThatReachATopicsByteCapAreRefused() throws Exception {
    // 101 bytes: 1,064 messages, 107,464 bytes of bodies.
    Path workload = backlogWorkload(101, 2);
    assertRefused(
        workload,
        "107,464 bytes of bodies in each topic, and Capped ("
            + driverFile()
            + ") keeps 107,401 before the broker discards the oldest");
  }

  @Test
  void aBacklogWithinEveryCapRuns() throws Exception {
    CommandLineRun run = runCapped(backlogWorkload(100, 2));
    assertEquals(0, run.status(), run.out() + run.err());
    assertFalse(run.err().contains("consumerBacklogSizeGB"), run.err());
  }

  private void assertRefused(Path workload, String middle) throws Exception {
    CommandLineRun run = runCapped(workload);
    assertRefusedInOneLine(
        run,
        "error: "
            + workload
            + ": field 'consumerBacklogSizeGB': a backlog of 0.0001 GB keeps "
            + middle
            + ", which would count as lost: "
            + RetentionLimitDriver.LIMIT_SETTING);
    assertFalse(run.out().contains("creating"), run.out());
  }

  /** A backlog of 0.0001 GB in messages of {@code messageSize} bytes over {@code partitions}. */
  private Path backlogWorkload(int messageSize, int partitions) throws Exception {
    Path workload = CommandLineRun.writeTinyWorkload(dir);
    return Files.writeString(
        workload,
        Files.readString(workload)
                .replace("messageSize: 100", "messageSize: " + messageSize)
                .replace("partitionsPerTopic: 1", "partitionsPerTopic: " + partitions)
                .replace("producerRate: 100", "producerRate: 2000")
            + "consumerBacklogSizeGB: 0.0001\n");
  }

  private CommandLineRun runCapped(Path workload) {
    return CommandLineRun.run(driverFile(), dir, workload);
  }

  private Path driverFile() {
    return CommandLineRun.writeDriverFile(dir, "capped.yaml", "Capped", RetentionLimitDriver.class);
  }
}
