package io.plumb.cli;

import static io.plumb.cli.OneLineRefusal.assertRefusedInOneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload whose messages are larger than the driver says it can send is refused before any topic
 * exists, with one line naming the workload's field, both sizes and the setting that limits them;
 * messages at the limit run.
 */
class MessageSizeRefusalTest {
  @TempDir Path dir;

  @Test
  void messagesAboveTheDriversLimitAreRefusedInOneLineBeforeAnyLoad() throws Exception {
    CommandLineRun run = CommandLineRun.tinyRun(dir, driverFile().toString());

    assertRefusedInOneLine(
        run,
        "error: "
            + dir.resolve("tiny.yaml")
            + ": field 'messageSize': 100 bytes is more than Limited ("
            + dir.resolve("limited.yaml")
            + ") can send as configured, 64 bytes: "
            + MessageLimitDriver.LIMIT_SETTING);
    assertFalse(run.out().contains("creating"), run.out());
  }

  @Test
  void aHeaderInMetadataCountsAgainstTheLimit() throws Exception {
    Path workload = tinyWorkload(50, "headerIn: metadata\n");
    CommandLineRun run = runLimited(workload);

    assertRefusedInOneLine(
        run,
        "error: "
            + workload
            + ": field 'messageSize': 50 bytes is more than Limited ("
            + dir.resolve("limited.yaml")
            + ") can send as configured, 38 bytes (less the 26 bytes of Plumb's header in its"
            + " metadata): "
            + MessageLimitDriver.LIMIT_SETTING);
  }

  @Test
  void messagesAtTheLimitRun() throws Exception {
    Path workload = tinyWorkload(MessageLimitDriver.LIMIT, "");
    CommandLineRun run = runLimited(workload);
    assertEquals(0, run.status(), run.err());
  }

  /** {@code tiny.yaml} with messages of {@code messageSize} bytes and {@code extra} lines. */
  private Path tinyWorkload(int messageSize, String extra) throws Exception {
    Path workload = CommandLineRun.writeTinyWorkload(dir);
    return Files.writeString(
        workload,
        Files.readString(workload).replace("messageSize: 100", "messageSize: " + messageSize)
            + extra);
  }

  private CommandLineRun runLimited(Path workload) {
    return CommandLineRun.run(driverFile(), dir, workload);
  }

  private Path driverFile() {
    return CommandLineRun.writeDriverFile(dir, "limited.yaml", "Limited", MessageLimitDriver.class);
  }
}
