package io.plumb.testkit;

import io.plumb.cli.CommandLineRun;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;

/**
 * {@code bin/benchmark} pointed at an address where no broker listens: every driver must end the
 * run with one line naming the address and how to start the broker, and exit status 3.
 */
public final class UnreachableBroker {

  private UnreachableBroker() {}

  /**
   * What is wrong with a tiny run of {@code driverFile} pointed, by the {@code --driver-set} that
   * {@code settingForPort} makes, at a free port of 127.0.0.1: empty when it ended as it should.
   *
   * @param startCommand what the line must say starts the broker ("deploy/local/nats.sh start")
   */
  public static List<String> problems(
      Path dir, String driverFile, IntFunction<String> settingForPort, String startCommand) {
    int port = CommandLineRun.unusedPort();
    CommandLineRun run = CommandLineRun.tinyRun(dir, driverFile, settingForPort.apply(port));
    return run.unreachableBrokerProblems(driverFile, "127.0.0.1:" + port, startCommand);
  }

  /**
   * The same, as a test's assertion.
   *
   * @throws AssertionError listing the {@link #problems} when there are any
   */
  public static void assertReported(
      Path dir, String driverFile, IntFunction<String> settingForPort, String startCommand) {
    List<String> problems = problems(dir, driverFile, settingForPort, startCommand);
    if (!problems.isEmpty()) {
      throw new AssertionError(driverFile + " with no broker: " + problems);
    }
  }
}
