package io.plumb.compare;

import io.plumb.input.BadInputException;
import io.plumb.repeat.PairSummary;
import io.plumb.report.ResultFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One side of a comparison: the results of one configuration (a workload with a driver file), given
 * as files or directories. A side that mixes configurations is refused: its spread would be the
 * difference between them, not noise.
 *
 * @param name "A" or "B"
 */
record ResultSide(String name, List<ResultFile> results) {

  static ResultSide read(String name, List<Path> arguments) {
    if (arguments.isEmpty()) {
      throw new BadInputException(
          "side " + name + ": no results given (usage: bin/benchmark compare A... -- B...)");
    }
    List<ResultFile> results = new ArrayList<>();
    for (Path argument : arguments) {
      if (Files.isDirectory(argument)) {
        List<Path> files = resultsIn(argument);
        if (files.isEmpty()) {
          throw new BadInputException(argument + ": no result files (*.json) in this directory");
        }
        files.forEach(file -> results.add(ResultFile.read(file)));
      } else {
        results.add(ResultFile.read(argument));
      }
    }
    Set<String> configurations = new LinkedHashSet<>();
    results.forEach(r -> configurations.add(configuration(r)));
    if (configurations.size() > 1) {
      throw new BadInputException(
          "side "
              + name
              + ": holds results of "
              + configurations.size()
              + " configurations ("
              + String.join("; ", configurations)
              + "); give the results of one workload and driver file a side");
    }
    return new ResultSide(name, List.copyOf(results));
  }

  /** Result files of a directory, without --repeat's summaries. */
  private static List<Path> resultsIn(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries
          .filter(p -> p.getFileName().toString().endsWith(".json"))
          .filter(p -> !p.getFileName().toString().startsWith("repeat-summary-"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new BadInputException(directory + ": cannot list: " + e.getMessage());
    }
  }

  static String configuration(ResultFile result) {
    String file = result.json().path("driverConfig").path("file").asText("");
    return result.workload()
        + " with "
        + result.driver()
        + (file.isEmpty() ? "" : " (" + Path.of(file).getFileName() + ")");
  }

  String configuration() {
    return configuration(results.get(0));
  }

  /**
   * The runs in the order they started ({@code phases.startTime}), which is the order of --repeat's
   * rounds: the k-th of each side ran in round k.
   */
  List<PairSummary.Run> inRoundOrder() {
    return results.stream()
        .sorted(Comparator.comparing(ResultSide::startTime))
        .map(r -> new PairSummary.Run(r.path(), r.json()))
        .toList();
  }

  private static Instant startTime(ResultFile result) {
    String start = result.json().path("phases").path("startTime").asText("");
    try {
      return Instant.parse(start);
    } catch (DateTimeParseException e) {
      throw new BadInputException(
          result.path() + ": phases.startTime: expected an ISO-8601 instant, got '" + start + "'");
    }
  }
}
