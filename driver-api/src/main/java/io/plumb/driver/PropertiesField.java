package io.plumb.driver;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * A free-form field of client properties, parsed: either a mapping of {@code key: value} or a text
 * block of {@code key=value} lines (Java properties, as OpenMessaging Benchmark writes {@code
 * commonConfig: |}), with the line each key is written on so an error about one key points at it.
 *
 * @param values the properties, keys sorted, values trimmed text
 * @param keyLines the line of each key the file has
 */
record PropertiesField(Map<String, String> values, Map<String, Integer> keyLines) {

  private static final PropertiesField EMPTY = new PropertiesField(Map.of(), Map.of());

  /** The field {@code name} at {@code path} as the file has it (null when absent). */
  static PropertiesField inFile(SettingsSource source, String path, String name, Object value)
      throws DriverConfigException {
    if (value == null) {
      return EMPTY;
    }
    if (value instanceof Map<?, ?> map) {
      return mapping(source, path, map);
    }
    if (value instanceof String text) {
      Map<String, String> values = block(source, path, text);
      Integer fieldLine = source.line(path);
      Map<String, Integer> lines =
          fieldLine == null ? Map.of() : blockLines(text, values.keySet(), fieldLine);
      return new PropertiesField(values, lines);
    }
    throw new DriverConfigException(
        source.where(path)
            + ": expected key=value lines (write `"
            + name
            + ": |`) or a mapping, got "
            + SettingValue.describe(value));
  }

  /** The field replaced whole by text given outside the file, which has no lines. */
  static PropertiesField given(SettingsSource source, String path, String text)
      throws DriverConfigException {
    return new PropertiesField(block(source, path, text), Map.of());
  }

  private static PropertiesField mapping(SettingsSource source, String path, Map<?, ?> map)
      throws DriverConfigException {
    Map<String, String> values = new TreeMap<>();
    Map<String, Integer> lines = new TreeMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String key = String.valueOf(entry.getKey());
      Object item = entry.getValue();
      if (item instanceof Map<?, ?> || item instanceof List<?>) {
        throw new DriverConfigException(
            source.inFile(path + "." + key)
                + ": expected a single value, got "
                + SettingValue.describe(item));
      }
      values.put(key, item == null ? "" : String.valueOf(item).trim());
      Integer line = source.line(path + "." + key);
      if (line != null) {
        lines.put(key, line);
      }
    }
    return new PropertiesField(values, lines);
  }

  private static Map<String, String> block(SettingsSource source, String path, String text)
      throws DriverConfigException {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw new DriverConfigException(
          source.where(path) + ": not a valid block of key=value lines: " + e.getMessage());
    }
    Map<String, String> values = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      values.put(key, properties.getProperty(key).trim());
    }
    return values;
  }

  /**
   * The lines of a literal block's keys: a block written {@code name: |} starts on the line after
   * its field, one property per line, and ends with a line break (which a value written on the
   * field's own line does not).
   */
  private static Map<String, Integer> blockLines(String text, Set<String> keys, int fieldLine) {
    Map<String, Integer> lines = new TreeMap<>();
    List<String> rows = text.lines().toList();
    if (rows.size() <= 1 && !text.endsWith("\n")) {
      return lines; // a value on the field's own line, not a block
    }
    for (int i = 0; i < rows.size(); i++) {
      String row = rows.get(i).strip();
      for (String key : keys) {
        if (!lines.containsKey(key)
            && row.startsWith(key)
            && (row.length() == key.length() || "=: \t".indexOf(row.charAt(key.length())) >= 0)) {
          lines.put(key, fieldLine + 1 + i);
        }
      }
    }
    return lines;
  }
}
