package io.plumb.compare;

import io.plumb.input.BadInputException;
import io.plumb.repeat.PairSummary;
import io.plumb.report.ConfigDifferences;
import io.plumb.report.ResultFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One side of a comparison: the results of one configuration (a workload with a driver file), given
 * as files or directories. A side that mixes configurations is refused, whether their names differ
 * or only their settings (the driver file's contents, --driver-set values, workload fields): its
 * spread would be the difference between them, not noise.
 *
 * @param name "A" or "B"
 */
record ResultSide(String name, List<ResultFile> results) {
  /** Settings named in the refusal of a side whose results differ; the rest are counted. */
  private static final int MAX_DIFFERENCES_NAMED = 3;

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
    Map<String, List<String>> differences = new LinkedHashMap<>(ConfigDifferences.of(results));
    // The same file given by another path (another directory, or absolute) is the same settings.
    differences.remove("driver.file");
    if (!differences.isEmpty()) {
      // Same names, other settings: two variants of kafka.yaml in two directories, or runs with
      // other --driver-set values, whose spread would be the difference between them.
      throw new BadInputException(
          "side "
              + name
              + ": holds results of "
              + configurations.iterator().next()
              + " with different settings ("
              + describe(differences)
              + "); give the results of one workload and driver file a side");
    }
    return new ResultSide(name, List.copyOf(results));
  }

  /** The first differing settings with their values, e.g. "driver.contents.acks: all / 1". */
  private static String describe(Map<String, List<String>> differences) {
    List<String> shown = new ArrayList<>();
    for (Map.Entry<String, List<String>> difference : differences.entrySet()) {
      if (shown.size() == MAX_DIFFERENCES_NAMED) {
        shown.add("and " + (differences.size() - MAX_DIFFERENCES_NAMED) + " more");
        break;
      }
      shown.add(
          difference.getKey()
              + ": "
              + String.join(" / ", new LinkedHashSet<>(difference.getValue())));
    }
    return String.join("; ", shown);
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
   * A's and B's runs matched round by round, and the runs no round holds.
   *
   * @param a A's runs, one per round, in the order the rounds ran
   * @param b B's runs of the same rounds
   * @param unmatched one line per run that has no partner beside it
   */
  record Matched(List<PairSummary.Run> a, List<PairSummary.Run> b, List<String> unmatched) {}

  /**
   * Matches the runs of both sides by start time ({@code phases.startTime}): --repeat runs a
   * round's two runs one after the other (A B, then B A), so a round is an A and a B that started
   * next to each other. The k-th run of each side is not enough: a repeat interrupted after A's
   * run, or two repeats into one directory, shift one side by a run, and every later "round" would
   * pair runs of different rounds. A run with no partner beside it is named and left out.
   */
  static Matched matchRounds(ResultSide sideA, ResultSide sideB) {
    record Started(boolean isA, ResultFile result, Instant start) {}
    List<Started> all = new ArrayList<>();
    sideA.results.forEach(r -> all.add(new Started(true, r, startTime(r))));
    sideB.results.forEach(r -> all.add(new Started(false, r, startTime(r))));
    all.sort(Comparator.comparing(Started::start));
    List<PairSummary.Run> a = new ArrayList<>();
    List<PairSummary.Run> b = new ArrayList<>();
    List<String> unmatched = new ArrayList<>();
    int i = 0;
    while (i < all.size()) {
      Started run = all.get(i);
      if (i + 1 < all.size()
          && all.get(i + 1).isA() != run.isA()
          && sameRoundIfNamed(run.result(), all.get(i + 1).result())) {
        Started partner = all.get(i + 1);
        Started runA = run.isA() ? run : partner;
        Started runB = run.isA() ? partner : run;
        a.add(new PairSummary.Run(runA.result().path(), runA.result().json()));
        b.add(new PairSummary.Run(runB.result().path(), runB.result().json()));
        i += 2;
        continue;
      }
      String side = run.isA() ? "A" : "B";
      String other = run.isA() ? "B" : "A";
      unmatched.add(
          String.format(
              "left out: %s, %s: no run of %s beside it, so no round of both holds it",
              side, run.result().path(), other));
      i++;
    }
    return new Matched(a, b, unmatched);
  }

  /** The "-run3-" that --repeat puts in a round's file names. */
  private static final Pattern ROUND_IN_NAME = Pattern.compile("-run(\\d+)-");

  /**
   * False only when both files carry --repeat's round number and the numbers differ: a repeat
   * interrupted after B's run of round 2 and run again into the same directory has that B run start
   * right before A's run of the new round 1.
   */
  private static boolean sameRoundIfNamed(ResultFile one, ResultFile other) {
    Matcher first = ROUND_IN_NAME.matcher(one.path().getFileName().toString());
    Matcher second = ROUND_IN_NAME.matcher(other.path().getFileName().toString());
    return !(first.find() && second.find()) || first.group(1).equals(second.group(1));
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
