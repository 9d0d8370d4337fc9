package io.plumb.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the broker clients' own log lines go: a file beside the results, not the console, where a
 * fault's reconnect warnings would bury the progress lines. Set before any driver class loads,
 * since the clients' logger reads its settings once, at its first use.
 */
final class ClientLog {
  static final String PROPERTY = "org.slf4j.simpleLogger.logFile";

  private ClientLog() {}

  /**
   * Sends client logs to {@code clients.log} in the results directory of {@code output} (a
   * directory, or a result file's directory; default {@code results/}). Leaves a destination set
   * before (with {@code -D}) alone. Returns the file the logs go to; empty for the console.
   */
  static Optional<Path> sendBeside(Path output) {
    String chosen = System.getProperty(PROPERTY);
    if (chosen != null) {
      // Set with -D, or by an earlier run in this process: the clients' logger, configured once,
      // keeps writing there.
      return chosen.startsWith("System.") ? Optional.empty() : Optional.of(Path.of(chosen));
    }
    Path directory =
        output == null
            ? Path.of("results")
            : output.toString().endsWith(".json")
                ? Optional.ofNullable(output.toAbsolutePath().getParent()).orElse(Path.of("."))
                : output;
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      return Optional.empty(); // ResultPaths refuses an unwritable directory in one line
    }
    Path file = directory.resolve("clients.log");
    System.setProperty(PROPERTY, file.toString());
    return Optional.of(file);
  }
}
