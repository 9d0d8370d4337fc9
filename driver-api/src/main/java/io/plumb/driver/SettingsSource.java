package io.plumb.driver;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where the values of one driver file come from, shared by every view of it: the file's name and
 * the line of each key, the values given outside the file ({@code --driver-set}, environment
 * variables) and which of those a driver has taken, so the file's top level can reject the rest.
 * Every location a message names is phrased here.
 */
final class SettingsSource {

  /** A value given outside the file: {@code origin} is how the user gave it. */
  record Given(String value, String origin) {
    /** {@code --driver-set x=v} or {@code environment variable X=v}. */
    String where() {
      return origin + "=" + value;
    }
  }

  static final String COMMAND_LINE = "--driver-set";

  private final String file;
  private final Map<String, Integer> lines;
  private final Map<String, Given> given;
  private final Set<String> used = new TreeSet<>();
  private final Set<String> known = new TreeSet<>();

  private SettingsSource(String file, Map<String, Integer> lines, Map<String, Given> given) {
    this.file = file;
    this.lines = Map.copyOf(lines);
    this.given = new LinkedHashMap<>(given);
  }

  /** A file's keys with {@code --driver-set} values by dotted path. */
  static SettingsSource of(String file, Map<String, Integer> lines, Map<String, String> overrides) {
    Map<String, Given> given = new LinkedHashMap<>();
    new TreeMap<>(overrides)
        .forEach((key, value) -> given.put(key, new Given(value, COMMAND_LINE + " " + key)));
    return new SettingsSource(file, lines, given);
  }

  /**
   * The same file with environment variables beneath the values given so far; a blank variable
   * counts as unset. Nothing is taken yet in the result.
   */
  SettingsSource withEnvironment(
      Map<String, String> environment, Map<String, String> variableToField) {
    Map<String, Given> withEnvironment = new LinkedHashMap<>();
    new TreeMap<>(variableToField)
        .forEach(
            (variable, field) -> {
              String value = environment.get(variable);
              if (value != null && !value.isBlank()) {
                withEnvironment.put(
                    field, new Given(value.strip(), "environment variable " + variable));
              }
            });
    withEnvironment.putAll(given);
    return new SettingsSource(file, lines, withEnvironment);
  }

  String file() {
    return file;
  }

  /** The {@code --driver-set} values by key. */
  Map<String, String> commandLine() {
    Map<String, String> commandLine = new TreeMap<>();
    given.forEach(
        (key, value) -> {
          if (value.origin().startsWith(COMMAND_LINE)) {
            commandLine.put(key, value.value());
          }
        });
    return Collections.unmodifiableMap(commandLine);
  }

  /** The line {@code path} is written on, or null when the file does not have it. */
  Integer line(String path) {
    return lines.get(path);
  }

  /** "file:line" for a key of the file, or just the file when the key is not written in it. */
  String at(String path) {
    Integer line = lines.get(path);
    return line == null ? file : file + ":" + line;
  }

  /** {@code file:line: field 'path'}: where the file has {@code path}, whatever else sets it. */
  String inFile(String path) {
    return at(path) + ": field '" + path + "'";
  }

  /** Where {@code path}'s value comes from: the value given outside the file, else the file. */
  String where(String path) {
    Given value = given.get(path);
    return value != null ? value.where() : inFile(path);
  }

  /** Whether a value for {@code path} was given outside the file. */
  boolean isGiven(String path) {
    return given.containsKey(path);
  }

  /** The value given outside the file for {@code path}, without taking it; null when none. */
  Given peek(String path) {
    return given.get(path);
  }

  /** The value given outside the file for {@code path}, marked as used; null when none. */
  Given take(String path) {
    Given value = given.get(path);
    if (value != null) {
      used.add(path);
    }
    return value;
  }

  /** Takes every value given for a key below {@code prefix}, by the rest of its key. */
  Map<String, String> takeBelow(String prefix) {
    Map<String, String> below = new LinkedHashMap<>();
    for (String key : List.copyOf(given.keySet())) {
      if (key.startsWith(prefix) && key.length() > prefix.length()) {
        below.put(key.substring(prefix.length()), take(key).value());
      }
    }
    return below;
  }

  /** Records {@code path} as a name some driver asked for, for the list of allowed names. */
  void declare(String path) {
    known.add(path);
  }

  /**
   * Rejects the first value given outside the file that no driver took, naming how it was given and
   * every name the driver asked for.
   */
  void rejectUnused() throws DriverConfigException {
    for (Map.Entry<String, Given> entry : given.entrySet()) {
      if (!used.contains(entry.getKey())) {
        throw new DriverConfigException(
            entry.getValue().where() + ": " + FieldNames.unknown(entry.getKey(), known));
      }
    }
  }
}
