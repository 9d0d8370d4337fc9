package io.plumb.testkit;

import io.plumb.input.BadInputException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A message larger than a driver can send as configured: the run must be refused before any topic
 * exists, in one line naming the workload's messageSize and the broker's settings that limit it,
 * instead of sends that never complete.
 */
public final class OversizedMessage {

  private OversizedMessage() {}

  /**
   * A {@link SmokeRun#ofMessageSize} run of {@code driverFile} with {@code messageSize} is refused
   * with {@code <workload file>: field 'messageSize': <reason>}, on one line.
   *
   * @throws AssertionError otherwise
   */
  public static void assertRefused(Path driverFile, int messageSize, Path scratch, String reason) {
    SmokeRun run = SmokeRun.ofMessageSize(messageSize);
    String refusal;
    try {
      run.run(driverFile, Map.of(), scratch);
      throw new AssertionError(messageSize + "-byte messages ran on " + driverFile);
    } catch (BadInputException e) {
      refusal = e.getMessage();
    }
    String expected =
        scratch.resolve("smoke-" + driverFile.getFileName()) + ": field 'messageSize': " + reason;
    if (!expected.equals(refusal)) {
      throw new AssertionError("refused with\n  " + refusal + "\nnot\n  " + expected);
    }
  }
}
