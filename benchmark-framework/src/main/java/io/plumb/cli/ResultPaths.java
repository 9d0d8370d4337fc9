package io.plumb.cli;

import io.plumb.input.BadInputException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Chooses each result's file: under a directory by workload, driver and time, or one named file.
 */
final class ResultPaths {
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
  private final Path output;
  private final boolean singleFile;

  ResultPaths(Path output, int runs) {
    this.output = output == null ? Path.of("results") : output;
    this.singleFile = this.output.toString().endsWith(".json");
    if (singleFile && runs > 1) {
      throw new BadInputException(
          "-o "
              + output
              + ": a .json file holds one result, but "
              + runs
              + " runs were asked for; give a directory");
    }
  }

  Path pathFor(String workload, String driver) {
    if (singleFile) {
      return output;
    }
    String name =
        (workload + "-" + driver + "-" + LocalDateTime.now().format(STAMP))
            .replaceAll("[^A-Za-z0-9._-]", "_");
    return output.resolve(name + ".json");
  }
}
