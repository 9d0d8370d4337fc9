package io.plumb.input;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.plumb.driver.FieldNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict reader for the top-level fields of one YAML file: every value is type- and range-checked,
 * every field must be known, and every complaint is one line naming the file, the line and the
 * field. Jackson's data binding would coerce "10" into 10 and report errors with class names, which
 * is why the fields are read one by one here.
 */
public final class YamlFields {
  private static final YAMLMapper MAPPER = new YAMLMapper();

  private final Path file;
  private final ObjectNode root;
  private final Map<String, Integer> lines;
  private final Set<String> read = new TreeSet<>();

  private YamlFields(Path file, ObjectNode root, Map<String, Integer> lines) {
    this.file = file;
    this.root = root;
    this.lines = lines;
  }

  /** Parses {@code file}, which must hold a YAML mapping. */
  public static YamlFields read(Path file) {
    String text = InputFiles.read(file, "file not found", "cannot read", BadInputException::new);
    // First as every driver file is read: a key given twice or a value that is no finite number
    // (.nan, .inf) is refused naming its field, and every key's line is known.
    YamlTree parsed = YamlTree.parse(file.toString(), text);
    JsonNode tree;
    try {
      tree = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new BadInputException(
          file + lineOf(e.getLocation()) + ": not valid YAML: " + firstLine(e));
    }
    if (tree == null || !tree.isObject()) {
      throw new BadInputException(file + ": expected a YAML mapping of field: value lines");
    }
    return new YamlFields(file, (ObjectNode) tree, parsed.lines());
  }

  private static String lineOf(JsonLocation location) {
    return location == null || location.getLineNr() <= 0 ? "" : ":" + location.getLineNr();
  }

  private static String firstLine(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    return message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("");
  }

  public Path file() {
    return file;
  }

  /** "file:line: field 'x'" — the prefix of every complaint about a field. */
  public String where(String field) {
    return YamlTree.where(file, lines.get(field), field);
  }

  public BadInputException error(String field, String problem) {
    return new BadInputException(where(field) + ": " + problem);
  }

  private JsonNode value(String field) {
    read.add(field);
    return root.get(field);
  }

  public Optional<String> string(String field) {
    JsonNode node = value(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isTextual() && !node.isNumber() && !node.isBoolean()) {
      throw error(field, "expected text, got " + describe(node));
    }
    return Optional.of(node.asText());
  }

  public Optional<Boolean> bool(String field) {
    JsonNode node = value(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isBoolean()) {
      throw error(field, "expected true or false, got " + describe(node));
    }
    return Optional.of(node.booleanValue());
  }

  /** A whole number in [min, max]. */
  public Optional<Long> whole(String field, long min, long max) {
    JsonNode node = value(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    boolean integral =
        node.isIntegralNumber()
            || (node.isFloatingPointNumber()
                && node.doubleValue() == Math.rint(node.doubleValue()));
    if (!integral || node.doubleValue() < min || node.doubleValue() > max) {
      String range =
          max == Integer.MAX_VALUE
              ? "of at least " + min + " (and at most " + max + ")"
              : "from " + min + " to " + max;
      throw error(field, "expected a whole number " + range + ", got " + describe(node));
    }
    return Optional.of(node.longValue());
  }

  /** A number in [min, max], or (min, max] when {@code minExclusive}. */
  public Optional<Double> number(String field, double min, boolean minExclusive, double max) {
    JsonNode node = value(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isNumber()) {
      throw error(field, "expected a number, got " + describe(node));
    }
    double value = node.doubleValue();
    boolean belowMin = minExclusive ? value <= min : value < min;
    if (belowMin || value > max || Double.isNaN(value)) {
      String range =
          (minExclusive ? "greater than " : "at least ")
              + plain(min)
              + " and at most "
              + plain(max);
      throw error(field, "expected a number " + range + ", got " + describe(node));
    }
    return Optional.of(value);
  }

  public <E extends Enum<E>> Optional<E> choice(String field, Class<E> type) {
    Optional<String> text = string(field);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(text.get())) {
        return Optional.of(constant);
      }
    }
    List<String> allowed = new ArrayList<>();
    for (E constant : type.getEnumConstants()) {
      allowed.add(constant.name());
    }
    throw error(
        field, "expected one of " + String.join(", ", allowed) + ", got '" + text.get() + "'");
  }

  /**
   * Fails on the first field not in {@code known}. Call before reading, so a misspelled required
   * field is reported as misspelled rather than as missing.
   */
  public void rejectFieldsOtherThan(List<String> known) {
    read.addAll(known);
    rejectUnknownFields();
  }

  /**
   * Fails on the first field that no reader asked for, in the phrasing every driver file uses too
   * ({@link FieldNames#unknown}).
   */
  public void rejectUnknownFields() {
    List<String> unknown = new ArrayList<>();
    root.fieldNames()
        .forEachRemaining(
            name -> {
              if (!read.contains(name)) {
                unknown.add(name);
              }
            });
    if (unknown.isEmpty()) {
      return;
    }
    unknown.sort(Comparator.comparingInt(name -> lines.getOrDefault(name, 0)));
    String name = unknown.get(0);
    Integer line = lines.get(name);
    throw new BadInputException(
        file + (line == null ? "" : ":" + line) + ": " + FieldNames.unknown(name, read));
  }

  private static String describe(JsonNode node) {
    if (node.isTextual()) {
      return "'" + node.asText() + "'";
    }
    if (node.isObject()) {
      return "a mapping";
    }
    if (node.isArray()) {
      return "a list";
    }
    return node.asText();
  }

  private static String plain(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }
}
