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
   * with {@code -D} alone. Returns the file, when this call chose it.
   */
  static Optional<Path> sendBeside(Path output) {
    if (System.getProperty(PROPERTY) != null) {
      return Optional.empty();
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
      return Optional.empty(); // the result writer reports an unwritable directory in one line
    }
    Path file = directory.resolve("clients.log");
    System.setProperty(PROPERTY, file.toString());
    return Optional.of(file);
  }
}
