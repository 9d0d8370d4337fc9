package io.plumb.driver;

import io.plumb.driver.SettingsSource.Given;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A strict view of one mapping of a driver's YAML file (the whole file, or one {@link #section}),
 * with {@code --driver-set} values on top. The framework parses the file once; a driver reads its
 * fields here with typed getters and then calls {@link #finish}, which rejects every field and
 * every {@code --driver-set} key the driver did not ask for.
 *
 * <p>Every complaint is a {@link DriverConfigException} with one line naming where the value came
 * from: {@code file:line: field 'client.ioThreads': expected a whole number ..., got 'x'}, or
 * {@code --driver-set client.ioThreads=x: expected ...}. Values given on the command line are text
 * and are checked exactly like the file's.
 *
 * <p>Not thread-safe: a driver reads its settings once, in {@link BenchmarkDriver#initialize}.
 */
public final class DriverSettings {
  private final SettingsSource source;
  private final String prefix;
  private final Map<String, Object> values;
  private final Set<String> declared = new TreeSet<>();
  private final Map<String, Map<String, Integer>> propertyLines = new TreeMap<>();

  private DriverSettings(SettingsSource source, String prefix, Map<String, Object> values) {
    this.source = source;
    this.prefix = prefix;
    this.values = values;
  }

  /**
   * The settings of a parsed file.
   *
   * @param file the file's name as the user gave it, for messages
   * @param values the top-level mapping: nested mappings are {@code Map<String, ?>}, sequences
   *     {@code List<?>}, scalars String, Boolean, a whole Number or Double, or null
   * @param lines the line of every key, by its dotted path ({@code client.serviceUrl})
   * @param overrides {@code --driver-set} values by dotted path; they take precedence over the file
   */
  public static DriverSettings of(
      String file,
      Map<String, ?> values,
      Map<String, Integer> lines,
      Map<String, String> overrides) {
    Map<String, Given> given = new LinkedHashMap<>();
    new TreeMap<>(overrides)
        .forEach(
            (key, value) ->
                given.put(key, new Given(value, SettingsSource.COMMAND_LINE + " " + key)));
    return new DriverSettings(new SettingsSource(file, lines, given), "", copy(values));
  }

  /**
   * These settings with values from environment variables added beneath the {@code --driver-set}
   * ones (the command line still wins), e.g. {@code Map.of("NATS_URL", "natsHostUrl")}. A blank
   * variable counts as unset. Call on the file's settings before reading them.
   */
  public DriverSettings withEnvironment(
      Map<String, String> environment, Map<String, String> variableToField) {
    Map<String, Given> given = new LinkedHashMap<>();
    new TreeMap<>(variableToField)
        .forEach(
            (variable, field) -> {
              String value = environment.get(variable);
              if (value != null && !value.isBlank()) {
                given.put(field, new Given(value.strip(), "environment variable " + variable));
              }
            });
    given.putAll(source.given);
    return new DriverSettings(new SettingsSource(source.file, source.lines, given), prefix, values);
  }

  /** The file's name as the user gave it. */
  public String file() {
    return source.file;
  }

  /** The {@code --driver-set} values as given, for a driver that interprets some keys itself. */
  public Map<String, String> overrides() {
    Map<String, String> commandLine = new TreeMap<>();
    source.given.forEach(
        (key, value) -> {
          if (value.origin().startsWith(SettingsSource.COMMAND_LINE)) {
            commandLine.put(key, value.value());
          }
        });
    return Collections.unmodifiableMap(commandLine);
  }

  /**
   * Takes one {@code --driver-set} key that is not a field of the file (e.g. a client property the
   * driver passes on), so that {@link #finish} accepts it.
   */
  public Optional<String> override(String key) {
    Given value = source.take(key);
    return value == null ? Optional.empty() : Optional.of(value.value());
  }

  /** An error about a {@code --driver-set} key the driver interprets itself. */
  public DriverConfigException overrideError(String key, String problem) {
    Given value = source.given.get(key);
    String where = value == null ? SettingsSource.COMMAND_LINE + " " + key : value.where(key);
    return new DriverConfigException(where + ": " + problem);
  }

  /** Whether the file or an override sets {@code name}. */
  public boolean has(String name) {
    return values.get(name) != null || source.given.containsKey(prefix + name);
  }

  /** The line {@code name} is written on, if the file has it. */
  public Optional<Integer> line(String name) {
    return Optional.ofNullable(source.lines.get(prefix + name));
  }

  /** Accepts {@code name} without reading it (e.g. {@code driverClass}, read by the framework). */
  public DriverSettings ignore(String... names) {
    for (String name : names) {
      declare(name);
      source.take(prefix + name);
    }
    return this;
  }

  public Optional<String> string(String name) throws DriverConfigException {
    Value value = read(name);
    return value == null ? Optional.empty() : Optional.of(value.text());
  }

  public String string(String name, String fallback) throws DriverConfigException {
    return string(name).orElse(fallback);
  }

  /** A whole number that fits a long. */
  public Optional<Long> longValue(String name) throws DriverConfigException {
    Value value = read(name);
    return value == null
        ? Optional.empty()
        : Optional.of(value.whole(Long.MIN_VALUE, Long.MAX_VALUE));
  }

  public long longValue(String name, long fallback) throws DriverConfigException {
    return longValue(name).orElse(fallback);
  }

  /** A whole number that fits an int. */
  public Optional<Integer> integer(String name) throws DriverConfigException {
    Value value = read(name);
    return value == null
        ? Optional.empty()
        : Optional.of((int) value.whole(Integer.MIN_VALUE, Integer.MAX_VALUE));
  }

  public int integer(String name, int fallback) throws DriverConfigException {
    return integer(name).orElse(fallback);
  }

  /** Any number. */
  public Optional<Double> number(String name) throws DriverConfigException {
    Value value = read(name);
    return value == null ? Optional.empty() : Optional.of(value.number());
  }

  public double number(String name, double fallback) throws DriverConfigException {
    return number(name).orElse(fallback);
  }

  /** {@code true} or {@code false}. */
  public Optional<Boolean> bool(String name) throws DriverConfigException {
    Value value = read(name);
    return value == null ? Optional.empty() : Optional.of(value.bool());
  }

  public boolean bool(String name, boolean fallback) throws DriverConfigException {
    return bool(name).orElse(fallback);
  }

  /**
   * One of {@code type}'s constants, matched without regard to case against each constant's name
   * and its {@code toString()}; messages list the {@code toString()} forms.
   */
  public <E extends Enum<E>> Optional<E> enumValue(String name, Class<E> type)
      throws DriverConfigException {
    Value value = read(name);
    return value == null ? Optional.empty() : Optional.of(value.choice(type));
  }

  public <E extends Enum<E>> E enumValue(String name, Class<E> type, E fallback)
      throws DriverConfigException {
    return enumValue(name, type).orElse(fallback);
  }

  /**
   * A list of text values: a YAML sequence, a single value, or (as an override must be) text with
   * comma-separated items.
   */
  public Optional<List<String>> list(String name) throws DriverConfigException {
    Value value = read(name);
    return value == null ? Optional.empty() : Optional.of(value.list());
  }

  public List<String> list(String name, List<String> fallback) throws DriverConfigException {
    return list(name).orElse(fallback);
  }

  /**
   * A nested mapping, read with the same getters; overrides address its fields by dotted path
   * ({@code --driver-set client.serviceUrl=...}). An absent section is empty. Call {@link #finish}
   * on it too.
   */
  public DriverSettings section(String name) throws DriverConfigException {
    declare(name);
    Object value = values.get(name);
    if (value == null) {
      return new DriverSettings(source, prefix + name + ".", Map.of());
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new DriverConfigException(
          fileWhere(name) + ": expected a mapping of fields, got " + describe(value));
    }
    return new DriverSettings(source, prefix + name + ".", copy(map));
  }

  /**
   * A free-form section of client properties, passed on rather than read field by field: either a
   * mapping of {@code key: value} or a text block of {@code key=value} lines (Java properties, as
   * OpenMessaging Benchmark writes {@code commonConfig: |}). Overrides {@code name.key=value} are
   * added on top. Keys are sorted; values are trimmed text.
   */
  public Map<String, String> properties(String name) throws DriverConfigException {
    declare(name);
    Given whole = source.take(prefix + name);
    Object value = whole != null ? whole.value() : values.get(name);
    Map<String, String> result = new TreeMap<>();
    Map<String, Integer> keyLines = new TreeMap<>();
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String key = String.valueOf(entry.getKey());
        Object item = entry.getValue();
        if (item instanceof Map<?, ?> || item instanceof List<?>) {
          String path = prefix + name + "." + key;
          throw new DriverConfigException(
              source.at(path)
                  + ": field '"
                  + path
                  + "': expected a single value, got "
                  + describe(item));
        }
        result.put(key, item == null ? "" : String.valueOf(item).trim());
        Integer line = source.lines.get(prefix + name + "." + key);
        if (line != null) {
          keyLines.put(key, line);
        }
      }
    } else if (value instanceof String text) {
      Properties properties = new Properties();
      try {
        properties.load(new StringReader(text));
      } catch (IOException | IllegalArgumentException e) {
        throw new DriverConfigException(
            where(name) + ": not a valid block of key=value lines: " + e.getMessage());
      }
      for (String key : properties.stringPropertyNames()) {
        result.put(key, properties.getProperty(key).trim());
      }
      Integer fieldLine = whole == null ? source.lines.get(prefix + name) : null;
      if (fieldLine != null) {
        keyLines.putAll(blockLines(text, result.keySet(), fieldLine));
      }
    } else if (value != null) {
      throw new DriverConfigException(
          where(name)
              + ": expected key=value lines (write `"
              + name
              + ": |`) or a mapping, got "
              + describe(value));
    }
    String nested = prefix + name + ".";
    for (String key : List.copyOf(source.given.keySet())) {
      if (key.startsWith(nested) && key.length() > nested.length()) {
        result.put(key.substring(nested.length()), source.take(key).value());
      }
    }
    propertyLines.put(name, keyLines);
    return Collections.unmodifiableMap(result);
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

  /**
   * An error about a value the driver found not allowed after reading it (a range, a combination),
   * located where the value came from: {@code file:line: field 'x': problem} or {@code --driver-set
   * x=v: problem}.
   */
  public DriverConfigException error(String name, String problem) {
    return new DriverConfigException(where(name) + ": " + problem);
  }

  /** An error about one key of a {@link #properties} section, located on that key's line. */
  public DriverConfigException error(String name, String key, String problem) {
    Given value = source.given.get(prefix + name + "." + key);
    if (value != null) {
      return new DriverConfigException(value.where(key) + ": " + problem);
    }
    Integer line = propertyLines.getOrDefault(name, Map.of()).get(key);
    if (line == null) {
      return error(name, problem);
    }
    return new DriverConfigException(
        source.file + ":" + line + ": field '" + prefix + name + "': " + problem);
  }

  /**
   * Rejects every field of this mapping the driver did not read, and on the file's top level also
   * every {@code --driver-set} key no getter took. Call after reading everything, sections
   * included.
   */
  public void finish() throws DriverConfigException {
    List<String> unknown = new ArrayList<>();
    for (String key : values.keySet()) {
      if (!declared.contains(key)) {
        unknown.add(key);
      }
    }
    unknown.sort(
        (a, b) ->
            Integer.compare(
                source.lines.getOrDefault(prefix + a, 0),
                source.lines.getOrDefault(prefix + b, 0)));
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
      for (Map.Entry<String, Given> entry : source.given.entrySet()) {
        if (!source.used.contains(entry.getKey())) {
          throw new DriverConfigException(
              entry.getValue().where(entry.getKey())
                  + ": "
                  + FieldNames.unknown(entry.getKey(), source.known));
        }
      }
    }
  }

  private void declare(String name) {
    declared.add(name);
    source.known.add(prefix + name);
  }

  /** The value of {@code name}, or null when neither the file nor an override sets it. */
  private Value read(String name) {
    declare(name);
    Given given = source.take(prefix + name);
    if (given != null) {
      return new Value(given.value(), given.where(prefix + name));
    }
    Object value = values.get(name);
    return value == null ? null : new Value(value, fileWhere(name));
  }

  private String where(String name) {
    Given given = source.given.get(prefix + name);
    return given != null ? given.where(prefix + name) : fileWhere(name);
  }

  private String fileWhere(String name) {
    return source.at(prefix + name) + ": field '" + prefix + name + "'";
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> copy(Map<?, ?> map) {
    Map<String, Object> copy = new LinkedHashMap<>();
    map.forEach((key, value) -> copy.put(String.valueOf(key), value));
    return Collections.unmodifiableMap(copy);
  }

  static String describe(Object value) {
    if (value instanceof String text) {
      return "'" + text + "'";
    }
    if (value instanceof Map<?, ?>) {
      return "a mapping";
    }
    if (value instanceof List<?>) {
      return "a list";
    }
    return String.valueOf(value);
  }

  /** One value with where it came from, converted on demand. */
  private record Value(Object raw, String where) {

    private DriverConfigException wrong(String expected) {
      return new DriverConfigException(where + ": expected " + expected + ", got " + describe(raw));
    }

    String text() throws DriverConfigException {
      if (raw instanceof String || raw instanceof Number || raw instanceof Boolean) {
        return String.valueOf(raw);
      }
      throw wrong("text");
    }

    long whole(long min, long max) throws DriverConfigException {
      String expected = "a whole number";
      BigInteger number;
      if (raw instanceof BigInteger big) {
        number = big;
      } else if (raw instanceof Long || raw instanceof Integer || raw instanceof Short) {
        number = BigInteger.valueOf(((Number) raw).longValue());
      } else if (raw instanceof Double d && d == Math.rint(d) && Math.abs(d) < 9e15) {
        number = BigInteger.valueOf(d.longValue());
      } else if (raw instanceof String text) {
        try {
          number = new BigInteger(text.strip().replace("_", ""));
        } catch (NumberFormatException e) {
          throw wrong(expected);
        }
      } else {
        throw wrong(expected);
      }
      if (number.compareTo(BigInteger.valueOf(min)) < 0
          || number.compareTo(BigInteger.valueOf(max)) > 0) {
        throw wrong("a whole number from " + min + " to " + max);
      }
      return number.longValue();
    }

    double number() throws DriverConfigException {
      if (raw instanceof Number number) {
        return number.doubleValue();
      }
      if (raw instanceof String text) {
        try {
          return Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
          throw wrong("a number");
        }
      }
      throw wrong("a number");
    }

    boolean bool() throws DriverConfigException {
      if (raw instanceof Boolean b) {
        return b;
      }
      if (raw instanceof String text) {
        if (text.strip().equalsIgnoreCase("true")) {
          return true;
        }
        if (text.strip().equalsIgnoreCase("false")) {
          return false;
        }
      }
      throw wrong("true or false");
    }

    <E extends Enum<E>> E choice(Class<E> type) throws DriverConfigException {
      String text = text().strip();
      for (E constant : type.getEnumConstants()) {
        if (constant.name().equalsIgnoreCase(text) || constant.toString().equalsIgnoreCase(text)) {
          return constant;
        }
      }
      throw wrong(
          "one of "
              + Arrays.stream(type.getEnumConstants())
                  .map(Object::toString)
                  .collect(Collectors.joining(", ")));
    }

    List<String> list() throws DriverConfigException {
      if (raw instanceof List<?> items) {
        List<String> texts = new ArrayList<>();
        for (Object item : items) {
          if (item == null || item instanceof Map<?, ?> || item instanceof List<?>) {
            throw wrong("a list of text values");
          }
          texts.add(String.valueOf(item));
        }
        return List.copyOf(texts);
      }
      if (raw instanceof String text) {
        return Arrays.stream(text.split(","))
            .map(String::strip)
            .filter(item -> !item.isEmpty())
            .toList();
      }
      return List.of(text());
    }
  }
}
