package io.plumb.cli;

import io.plumb.input.BadInputException;
import io.plumb.input.InputFiles;
import java.io.IOException;
import java.nio.file.Files;
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
    checkWritable();
  }

  /**
   * Refuses, before anything runs, an output no result could be written to: found only when the
   * first result is written, the run's measurements would be lost with it.
   */
  private void checkWritable() {
    String option = "-o " + this.output;
    Path directory = singleFile ? this.output.toAbsolutePath().getParent() : this.output;
    if (singleFile && Files.isDirectory(this.output)) {
      throw new BadInputException(
          option
              + ": is a directory, not a file; give a new file ending in .json, or the directory");
    }
    if (!singleFile && Files.exists(directory) && !Files.isDirectory(directory)) {
      throw new BadInputException(
          option
              + ": is a file, not a directory; results go in a directory, or give a file ending in"
              + " .json for one run");
    }
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new BadInputException(
          option + ": cannot create the directory " + directory + ": " + InputFiles.reason(e));
    }
    if (!Files.isWritable(directory)) {
      throw new BadInputException(option + ": cannot write in the directory " + directory);
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
