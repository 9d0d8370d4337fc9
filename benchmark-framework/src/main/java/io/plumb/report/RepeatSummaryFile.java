package io.plumb.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.plumb.input.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A {@code repeat-summary-*.json} that {@code --repeat} wrote, and the result files it names. */
final class RepeatSummaryFile {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private RepeatSummaryFile() {}

  /** The summary, or empty when the file is anything else (a result is checked elsewhere). */
  static Optional<JsonNode> read(Path file) {
    if (!Files.isRegularFile(file)
        || !file.getFileName().toString().startsWith("repeat-summary-")) {
      return Optional.empty();
    }
    try {
      JsonNode json = MAPPER.readTree(file.toFile());
      return json != null && json.path("pairs").isArray() && json.has("repeat")
          ? Optional.of(json)
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The runs' result files: as written, or beside the summary when the directory has moved since.
   */
  static List<Path> results(Path summaryFile, JsonNode summary) {
    List<Path> files = new ArrayList<>();
    for (JsonNode pair : summary.path("pairs")) {
      for (JsonNode run : pair.path("results")) {
        Path written = Path.of(run.path("file").asText());
        Path beside = summaryFile.resolveSibling(written.getFileName());
        if (Files.isRegularFile(written)) {
          files.add(written);
        } else if (Files.isRegularFile(beside)) {
          files.add(beside);
        } else {
          throw new BadInputException(
              summaryFile
                  + ": names the result "
                  + written
                  + ", which is not there (nor beside it)");
        }
      }
    }
    return files;
  }
}
