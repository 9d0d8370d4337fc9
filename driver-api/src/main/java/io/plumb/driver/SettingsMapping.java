package io.plumb.driver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One mapping of a driver file (the top level, or a section at a dotted prefix such as {@code
 * client.}): reads its fields with the values given outside the file on top, records every name a
 * driver asks for, and rejects the fields it never asked for.
 */
final class SettingsMapping {
  private final SettingsSource source;
  private final String prefix;
  private final Map<String, Object> values;
  private final Set<String> declared = new TreeSet<>();

  /** The line of each key of the {@link #properties} sections read, by section name. */
  private final Map<String, Map<String, Integer>> propertyLines = new TreeMap<>();

  private SettingsMapping(SettingsSource source, String prefix, Map<?, ?> values) {
    this.source = source;
    this.prefix = prefix;
    this.values = copy(values);
    if (prefix.isEmpty()) {
      // Not offered for --driver-set, which refuses them: only the file's list names them.
      declared.addAll(DriverSettings.FRAMEWORK_FIELDS);
    }
  }

  /** The top level of a file. */
  static SettingsMapping root(SettingsSource source, Map<String, ?> values) {
    return new SettingsMapping(source, "", values);
  }

  /** The same fields seen through another source, nothing read yet. */
  SettingsMapping withSource(SettingsSource other) {
    return new SettingsMapping(other, prefix, values);
  }

  SettingsSource source() {
    return source;
  }

  /**
   * The value of {@code name} converted, or empty when neither the file nor a value given outside
   * it sets it. Either way {@code name} counts as read.
   */
  <T> Optional<T> read(String name, SettingValue.Conversion<T> conversion)
      throws DriverConfigException {
    declare(name);
    String path = prefix + name;
    SettingsSource.Given given = source.take(path);
    if (given != null) {
      return Optional.of(conversion.apply(new SettingValue(given.value(), given.where())));
    }
    Object value = values.get(name);
    return value == null
        ? Optional.empty()
        : Optional.of(conversion.apply(new SettingValue(value, source.inFile(path))));
  }

  boolean has(String name) {
    return values.get(name) != null || source.isGiven(prefix + name);
  }

  /** The nested mapping {@code name}; an absent one is empty. */
  SettingsMapping section(String name) throws DriverConfigException {
    declare(name);
    Object value = values.get(name);
    if (value == null) {
      return new SettingsMapping(source, prefix + name + ".", Map.of());
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new DriverConfigException(
          source.inFile(prefix + name)
              + ": expected a mapping of fields, got "
              + SettingValue.describe(value));
    }
    return new SettingsMapping(source, prefix + name + ".", map);
  }

  /**
   * The free-form properties section {@code name}: a whole value given outside the file replaces
   * the file's, and values given for {@code name.key} are added on top.
   */
  Map<String, String> properties(String name) throws DriverConfigException {
    declare(name);
    String path = prefix + name;
    SettingsSource.Given whole = source.take(path);
    PropertiesField field =
        whole != null
            ? PropertiesField.given(source, path, whole.value())
            : PropertiesField.inFile(source, path, name, values.get(name));
    Map<String, String> result = new TreeMap<>(field.values());
    result.putAll(source.takeBelow(path + "."));
    propertyLines.put(name, field.keyLines());
    return Collections.unmodifiableMap(result);
  }

  /** An error located where {@code name}'s value comes from. */
  DriverConfigException error(String name, String problem) {
    return new DriverConfigException(source.where(prefix + name) + ": " + problem);
  }

  /**
   * An error about one key of the properties section {@code name}: on the key's own line when the
   * section was read and the file has the key there, else on the section.
   */
  DriverConfigException error(String name, String key, String problem) {
    SettingsSource.Given value = source.peek(prefix + name + "." + key);
    if (value != null) {
      return new DriverConfigException(value.where() + ": " + problem);
    }
    Integer line = propertyLines.getOrDefault(name, Map.of()).get(key);
    if (line == null) {
      return error(name, problem);
    }
    return new DriverConfigException(
        source.file() + ":" + line + ": field '" + prefix + name + "': " + problem);
  }

  /**
   * Rejects the first field (by line) of this mapping that was never read, suggesting the closest
   * name read; on the top level also the first value given outside the file that nothing took.
   */
  void finish() throws DriverConfigException {
    List<String> unknown = new ArrayList<>();
    for (String key : values.keySet()) {
      if (!declared.contains(key)) {
        unknown.add(key);
      }
    }
    unknown.sort((a, b) -> Integer.compare(lineOf(a), lineOf(b)));
    if (!unknown.isEmpty()) {
      String key = unknown.get(0);
      String path = prefix + key;
      String suggestion = FieldNames.closest(key, declared);
      // Suggest the full path, as the user would write it in an override.
      String message =
          FieldNames.unknown(path, suggestion == null ? null : prefix + suggestion, declared);
      throw new DriverConfigException(source.at(path) + ": " + message);
    }
    if (prefix.isEmpty()) {
      source.rejectUnused();
    }
  }

  private int lineOf(String key) {
    Integer line = source.line(prefix + key);
    return line == null ? 0 : line;
  }

  private void declare(String name) {
    declared.add(name);
    source.declare(prefix + name);
  }

  private static Map<String, Object> copy(Map<?, ?> map) {
    Map<String, Object> copy = new LinkedHashMap<>();
    map.forEach((key, value) -> copy.put(String.valueOf(key), value));
    return Collections.unmodifiableMap(copy);
  }
}
