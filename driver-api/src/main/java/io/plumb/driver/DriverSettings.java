package io.plumb.driver;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A driver's YAML file, read field by field. The framework parses the file and puts the command
 * line's {@code --driver-set key=value} values on top; a driver reads what it needs with the typed
 * getters below, in {@link BenchmarkDriver#initialize}, and then calls {@link #finish}. The fields
 * {@code name} and {@code driverClass} are the framework's and already count as read:
 *
 * <pre>{@code
 * DriverSettings s = config.settings();
 * DriverSettings client = s.section("client"); // client.serviceUrl, client.ioThreads, ...
 * String serviceUrl = client.string("serviceUrl", "pulsar://127.0.0.1:6650");
 * int ioThreads = client.integer("ioThreads", 8);
 * if (ioThreads < 1) {
 *   throw client.error("ioThreads", "must be at least 1");
 * }
 * client.finish();
 * s.finish(); // rejects every field and --driver-set key nobody read, e.g. a misspelling
 * }</pre>
 *
 * <p>Each getter comes in two forms: {@code integer(name)} is empty when neither the file nor the
 * command line sets the field, {@code integer(name, fallback)} gives the fallback instead. A value
 * of the wrong type fails with a {@link DriverConfigException} whose one-line message says where
 * the value came from and what is allowed: {@code kafka.yaml:7: field 'replicationFactor': expected
 * a whole number, got 'three'}, or {@code --driver-set replicationFactor=three: expected ...}.
 * Values from the command line are text and are checked exactly like the file's. For a value that
 * has the right type but is not allowed, throw {@link #error(String, String)}, which locates it the
 * same way.
 *
 * <p>Not thread-safe: a driver reads its settings once, in {@link BenchmarkDriver#initialize}.
 */
public final class DriverSettings {
  /**
   * A driver file's fields that are the framework's, read by it to choose the driver and name the
   * result: at the top level they count as read, so a driver reads only its own fields.
   */
  public static final Set<String> FRAMEWORK_FIELDS = Set.of("name", "driverClass");

  private final SettingsMapping mapping;

  private DriverSettings(SettingsMapping mapping) {
    this.mapping = mapping;
  }

  /** Text; a number or boolean in the file is given as its text ({@code 3} as "3"). */
  public Optional<String> string(String name) throws DriverConfigException {
    return mapping.read(name, SettingValue::text);
  }

  /** Text, or {@code fallback} when the field is not set. */
  public String string(String name, String fallback) throws DriverConfigException {
    return string(name).orElse(fallback);
  }

  /** A whole number that fits a long ({@code 1_000_000} is allowed). */
  public Optional<Long> longValue(String name) throws DriverConfigException {
    return mapping.read(name, value -> value.whole(Long.MIN_VALUE, Long.MAX_VALUE));
  }

  /** A whole number that fits a long, or {@code fallback} when the field is not set. */
  public long longValue(String name, long fallback) throws DriverConfigException {
    return longValue(name).orElse(fallback);
  }

  /** A whole number that fits an int. */
  public Optional<Integer> integer(String name) throws DriverConfigException {
    return mapping.read(name, value -> (int) value.whole(Integer.MIN_VALUE, Integer.MAX_VALUE));
  }

  /** A whole number that fits an int, or {@code fallback} when the field is not set. */
  public int integer(String name, int fallback) throws DriverConfigException {
    return integer(name).orElse(fallback);
  }

  /**
   * A whole number that fits an int, or {@code fallback} when the field is not set, refused with
   * {@code must be >= min, was value} below {@code min}: the bound most counts and sizes have.
   */
  public int integerAtLeast(String name, int min, int fallback) throws DriverConfigException {
    int value = integer(name, fallback);
    if (value < min) {
      throw error(name, "must be >= " + min + ", was " + value);
    }
    return value;
  }

  /** {@link #longValue(String, long)} with the lower bound of {@link #integerAtLeast}. */
  public long longAtLeast(String name, long min, long fallback) throws DriverConfigException {
    long value = longValue(name, fallback);
    if (value < min) {
      throw error(name, "must be >= " + min + ", was " + value);
    }
    return value;
  }

  /** Any number. */
  public Optional<Double> number(String name) throws DriverConfigException {
    return mapping.read(name, SettingValue::number);
  }

  /** Any number, or {@code fallback} when the field is not set. */
  public double number(String name, double fallback) throws DriverConfigException {
    return number(name).orElse(fallback);
  }

  /** {@code true} or {@code false}. */
  public Optional<Boolean> bool(String name) throws DriverConfigException {
    return mapping.read(name, SettingValue::bool);
  }

  /** {@code true} or {@code false}, or {@code fallback} when the field is not set. */
  public boolean bool(String name, boolean fallback) throws DriverConfigException {
    return bool(name).orElse(fallback);
  }

  /**
   * One of {@code type}'s constants, matched without regard to case against each constant's name
   * and its {@code toString()}; messages list the {@code toString()} forms.
   */
  public <E extends Enum<E>> Optional<E> enumValue(String name, Class<E> type)
      throws DriverConfigException {
    return mapping.read(name, value -> value.choice(type));
  }

  /** One of {@code type}'s constants, or {@code fallback} when the field is not set. */
  public <E extends Enum<E>> E enumValue(String name, Class<E> type, E fallback)
      throws DriverConfigException {
    return enumValue(name, type).orElse(fallback);
  }

  /**
   * A list of text values: a YAML sequence, a single value, or (as an override must be) text with
   * comma-separated items.
   */
  public Optional<List<String>> list(String name) throws DriverConfigException {
    return mapping.read(name, SettingValue::list);
  }

  /** A list of text values, or {@code fallback} when the field is not set. */
  public List<String> list(String name, List<String> fallback) throws DriverConfigException {
    return list(name).orElse(fallback);
  }

  /**
   * A nested mapping, read with the same getters; overrides address its fields by dotted path
   * ({@code --driver-set client.serviceUrl=...}). An absent section is empty. Call {@link #finish}
   * on it too.
   */
  public DriverSettings section(String name) throws DriverConfigException {
    return new DriverSettings(mapping.section(name));
  }

  /**
   * A free-form section of client properties, passed on rather than read field by field: either a
   * mapping of {@code key: value} or a text block of {@code key=value} lines (Java properties, as
   * OpenMessaging Benchmark writes {@code commonConfig: |}). Overrides {@code name.key=value} are
   * added on top. Keys are sorted; values are trimmed text.
   */
  public Map<String, String> properties(String name) throws DriverConfigException {
    return mapping.properties(name);
  }

  /**
   * An error about a value the driver found not allowed after reading it (a range, a combination),
   * located where the value came from: {@code file:line: field 'x': problem} or {@code --driver-set
   * x=v: problem}.
   */
  public DriverConfigException error(String name, String problem) {
    return mapping.error(name, problem);
  }

  /** An error about one key of a {@link #properties} section, located on that key's line. */
  public DriverConfigException error(String name, String key, String problem) {
    return mapping.error(name, key, problem);
  }

  /**
   * Rejects every field of this mapping the driver did not read, and on the file's top level also
   * every {@code --driver-set} key no getter took. Call after reading everything, sections
   * included.
   */
  public void finish() throws DriverConfigException {
    mapping.finish();
  }

  // Less common: environment variables, keys a driver interprets itself, fields it skips.

  /**
   * These settings with values from environment variables added beneath the {@code --driver-set}
   * ones (the command line still wins), e.g. {@code Map.of("NATS_URL", "natsHostUrl")}. A blank
   * variable counts as unset. Call on the file's settings before reading them, and read from the
   * result.
   */
  public DriverSettings withEnvironment(
      Map<String, String> environment, Map<String, String> variableToField) {
    return new DriverSettings(
        mapping.withSource(mapping.source().withEnvironment(environment, variableToField)));
  }

  /** Whether the file or an override sets {@code name}; does not count as reading it. */
  public boolean has(String name) {
    return mapping.has(name);
  }

  /** The {@code --driver-set} values as given, for a driver that interprets some keys itself. */
  public Map<String, String> overrides() {
    return mapping.source().commandLine();
  }

  /**
   * Takes one {@code --driver-set} key that is not a field of the file (e.g. a client property the
   * driver passes on), so that {@link #finish} accepts it.
   */
  public Optional<String> override(String key) {
    SettingsSource.Given value = mapping.source().take(key);
    return value == null ? Optional.empty() : Optional.of(value.value());
  }

  /** An error about a {@code --driver-set} key the driver interprets itself. */
  public DriverConfigException overrideError(String key, String problem) {
    SettingsSource.Given value = mapping.source().peek(key);
    String where = value == null ? SettingsSource.COMMAND_LINE + " " + key : value.where();
    return new DriverConfigException(where + ": " + problem);
  }

  /** The file's name as the user gave it. */
  public String file() {
    return mapping.source().file();
  }

  /**
   * For the framework, which parses the file: the settings of a parsed file.
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
    return new DriverSettings(
        SettingsMapping.root(SettingsSource.of(file, lines, overrides), values));
  }
}
