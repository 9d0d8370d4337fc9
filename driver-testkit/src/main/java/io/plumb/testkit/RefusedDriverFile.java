package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A driver file a driver must refuse, kept in its test resources with the refusal it expects in its
 * first line: {@code # refused: :3: field 'x': ...} (the exact line after the file's name), or
 * {@code # misspelled: typo for meant} (an unknown field, named with its line, that suggests the
 * field meant).
 *
 * @param refusal the line after the file's name, or null for a misspelling
 * @param typo the misspelled field, or null
 * @param meant the field the misspelling suggests, or null
 */
record RefusedDriverFile(Path file, String refusal, String typo, String meant) {

  static final String REFUSED = "# refused: ";
  static final String MISSPELLED = "# misspelled: ";

  /** The {@code .yaml} files of {@code dir}, by name; none if it does not exist. */
  static List<RefusedDriverFile> in(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> yaml = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
      List<RefusedDriverFile> read = new ArrayList<>();
      for (Path file : yaml) {
        read.add(read(file));
      }
      return read;
    }
  }

  private static RefusedDriverFile read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    String first = lines.isEmpty() ? "" : lines.get(0);
    if (first.startsWith(REFUSED)) {
      return new RefusedDriverFile(file, first.substring(REFUSED.length()), null, null);
    }
    if (first.startsWith(MISSPELLED)) {
      String[] words = first.substring(MISSPELLED.length()).split(" for ");
      if (words.length == 2) {
        return new RefusedDriverFile(file, null, words[0].strip(), words[1].strip());
      }
    }
    throw new AssertionError(
        file
            + ":1: starts with neither '"
            + REFUSED
            + ":LINE: field ...' nor '"
            + MISSPELLED
            + "TYPO for FIELD'");
  }

  boolean isMisspelling() {
    return typo != null;
  }

  /** Checks that a driver from {@code newDriver} refuses this file, read with {@code overrides}. */
  void assertRefusedBy(Supplier<? extends BenchmarkDriver> newDriver, Map<String, String> overrides)
      throws Exception {
    if (isMisspelling()) {
      ConfigRefusal.assertMisspelledField(newDriver, file, lineOf(typo), typo, meant);
      return;
    }
    ConfigRefusal.assertRefused(newDriver, file, overrides, refusal);
  }

  /** The line on which the file has the field {@code name}. */
  private int lineOf(String name) throws IOException {
    List<String> lines = Files.readAllLines(file);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().startsWith(name + ":")) {
        return i + 1;
      }
    }
    throw new AssertionError(file + " has no field " + name + ", which its first line names");
  }
}
