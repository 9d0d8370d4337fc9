package io.plumb.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.plumb.input.BadInputException;
import io.plumb.input.InputFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Makes a report from result files: reads and checks them all first (so a bad file costs nothing),
 * then writes the HTML page and, beside it, the histograms as {@code .hgrm} files.
 */
public final class Report {
  /** What was written. */
  public record Written(Path html, List<Path> hgrmFiles) {}

  private Report() {}

  public static Written write(List<Path> inputs, Path output) throws IOException {
    if (inputs.isEmpty()) {
      throw new BadInputException(
          "report: no result files given; e.g. bin/benchmark report results/*.json -o report.html");
    }
    List<ResultFile> results = new ArrayList<>();
    List<JsonNode> summaries = new ArrayList<>();
    for (Path input : inputs) {
      Optional<JsonNode> summary = RepeatSummaryFile.read(input);
      if (summary.isPresent()) {
        // A --repeat summary brings its runs' results along, and its table.
        summaries.add(summary.get());
        for (Path result : RepeatSummaryFile.results(input, summary.get())) {
          if (!inputs.contains(result)) {
            results.add(ResultFile.read(result));
          }
        }
      } else {
        results.add(ResultFile.read(input));
      }
    }
    if (Files.isDirectory(output)) {
      throw new BadInputException(
          "-o " + output + ": is a directory; give the report's file name, e.g. report.html");
    }
    Path directory = output.toAbsolutePath().getParent();
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new BadInputException(
          "-o "
              + output
              + ": cannot create the directory "
              + directory
              + ": "
              + InputFiles.reason(e));
    }
    List<Path> hgrmFiles = HgrmExport.write(results, directory);
    String page = ReportPage.render(results, summaries, hgrmFiles, output);
    Files.writeString(output, page, StandardCharsets.UTF_8);
    return new Written(output, hgrmFiles);
  }
}
