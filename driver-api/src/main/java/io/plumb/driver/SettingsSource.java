package io.plumb.driver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What every view of one driver file shares: the file's name and key lines, the values given
 * outside the file, and which of those a driver has used, so the root can reject the rest.
 */
final class SettingsSource {

  /** A value given outside the file: {@code origin} is how the user gave it. */
  record Given(String value, String origin) {
    String where(String key) {
      return origin + "=" + value;
    }
  }

  static final String COMMAND_LINE = "--driver-set";

  final String file;
  final Map<String, Integer> lines;
  final Map<String, Given> given;
  final Set<String> used = new TreeSet<>();
  final Set<String> known = new TreeSet<>();

  SettingsSource(String file, Map<String, Integer> lines, Map<String, Given> given) {
    this.file = file;
    this.lines = Map.copyOf(lines);
    this.given = new LinkedHashMap<>(given);
  }

  /** "file:line" for a key of the file, or just the file when the key is not written in it. */
  String at(String path) {
    Integer line = lines.get(path);
    return line == null ? file : file + ":" + line;
  }

  Given take(String path) {
    Given value = given.get(path);
    if (value != null) {
      used.add(path);
    }
    return value;
  }
}
