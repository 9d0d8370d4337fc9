package io.plumb.driver.redis;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.plumb.driver.DriverConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a driver's YAML file into a config record and applies overrides, turning every mistake into
 * one line that names where it came from ({@code file:line: field 'x': ...}, or the override).
 *
 * <p>Overrides are applied to the parsed tree and bound again, so a value from the command line is
 * checked exactly like one from the file.
 */
final class DriverYaml {

  /** One value that replaces a field of the file; {@code origin} says where it came from. */
  record Override(String field, String value, String origin) {}

  private static final ObjectMapper MAPPER =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private DriverYaml() {}

  /** The field names a config record accepts, sorted, for error messages. */
  static List<String> fieldNames(Class<? extends Record> type) {
    return Arrays.stream(type.getRecordComponents())
        .map(c -> c.getName())
        .sorted()
        .collect(Collectors.toList());
  }

  static <T extends Record> T load(Path file, Class<T> type, List<Override> overrides)
      throws DriverConfigException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new DriverConfigException(file + ": cannot read driver file: " + e.getMessage());
    }
    // Empty YAML (or only comments) means "all defaults".
    String effective = text.isBlank() || onlyComments(text) ? "{}" : text;
    T fromFile;
    try {
      fromFile = MAPPER.readValue(effective, type);
    } catch (JacksonException e) {
      throw new DriverConfigException(describe(file.toString(), text, type, e));
    }
    if (overrides.isEmpty()) {
      return fromFile;
    }
    List<String> known = fieldNames(type);
    ObjectNode tree;
    try {
      JsonNode parsed = MAPPER.readTree(effective);
      tree = parsed instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
    } catch (JacksonException e) {
      throw new DriverConfigException(file + ": " + firstLine(e.getOriginalMessage()));
    }
    for (Override o : overrides) {
      if (!known.contains(o.field())) {
        throw new DriverConfigException(
            o.origin() + ": unknown key '" + o.field() + "'; allowed: " + String.join(", ", known));
      }
      tree.put(o.field(), o.value());
    }
    try {
      return MAPPER.treeToValue(tree, type);
    } catch (JacksonException e) {
      String field = fieldOf(e);
      String origin =
          overrides.stream()
              .filter(o -> o.field().equals(field))
              .map(o -> o.origin() + "=" + o.value())
              .reduce((a, b) -> b)
              .orElse(file.toString());
      throw new DriverConfigException(origin + ": " + problem(type, e));
    }
  }

  /** Rephrases an error binding the file as one line: {@code file:line: field 'x': problem}. */
  static String describe(String fileName, String text, Class<?> type, JacksonException e) {
    int line = lineOf(e);
    String field = fieldOf(e);
    if (e instanceof ValueInstantiationException && e.getCause() != null) {
      // A compact constructor rejected a value: its message names the field; find its line.
      String message = e.getCause().getMessage();
      String named = namedField(message);
      int fieldLine = named == null ? -1 : lineOfField(text, named);
      return fileName + (fieldLine > 0 ? ":" + fieldLine : "") + ": " + message;
    }
    if (field == null) {
      return fileName + (line > 0 ? ":" + line : "") + ": " + firstLine(e.getOriginalMessage());
    }
    // Jackson's YAML locations can point past the value (to the next line); where the field is
    // written in the text is exact for the flat files drivers use.
    int fieldLine = lineOfField(text, field);
    if (fieldLine > 0) {
      line = fieldLine;
    }
    return fileName + (line > 0 ? ":" + line : "") + ": " + problem(type, e);
  }

  private static String problem(Class<?> type, JacksonException e) {
    String field = fieldOf(e);
    if (e instanceof UnrecognizedPropertyException u) {
      TreeSet<String> known = new TreeSet<>();
      u.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
      return "field '"
          + u.getPropertyName()
          + "': unknown field; allowed: "
          + String.join(", ", known);
    }
    if (e instanceof InvalidFormatException f) {
      Class<?> target = f.getTargetType();
      if (target != null && target.isEnum()) {
        String allowed =
            Arrays.stream(target.getEnumConstants())
                .map(Object::toString)
                .collect(Collectors.joining(", "));
        return "field '" + field + "': '" + f.getValue() + "' is not one of " + allowed;
      }
      return "field '"
          + field
          + "': '"
          + f.getValue()
          + "' is not a valid "
          + (target == null ? "value" : target.getSimpleName());
    }
    if (e instanceof ValueInstantiationException && e.getCause() != null) {
      return e.getCause().getMessage();
    }
    if (e instanceof JsonMappingException m && m.getCause() instanceof IllegalArgumentException) {
      return m.getCause().getMessage();
    }
    return "field '" + field + "': " + firstLine(e.getOriginalMessage());
  }

  private static String fieldOf(JacksonException e) {
    if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
      return m.getPath().stream()
          .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
          .collect(Collectors.joining("."));
    }
    return null;
  }

  private static int lineOf(JacksonException e) {
    JsonLocation location = e.getLocation();
    return location == null ? -1 : location.getLineNr();
  }

  private static final Pattern FIELD_IN_MESSAGE = Pattern.compile("field '([A-Za-z0-9_]+)'");

  private static String namedField(String message) {
    if (message == null) {
      return null;
    }
    var m = FIELD_IN_MESSAGE.matcher(message);
    return m.find() ? m.group(1) : null;
  }

  /** Line (1-based) where a top-level field is written in the YAML text, or -1. */
  static int lineOfField(String text, String field) {
    Pattern p = Pattern.compile("^\\s*[\"']?" + Pattern.quote(field) + "[\"']?\\s*:");
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      if (p.matcher(lines[i]).find()) {
        return i + 1;
      }
    }
    return -1;
  }

  private static boolean onlyComments(String text) {
    return text.lines().map(String::strip).allMatch(l -> l.isEmpty() || l.startsWith("#"));
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "invalid value";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  /** Environment variables and {@code --driver-set} values, in order of increasing precedence. */
  static List<Override> overrides(
      Map<String, String> environment,
      Map<String, String> envToField,
      Map<String, String> commandLine) {
    var list = new java.util.ArrayList<Override>();
    envToField.forEach(
        (env, field) -> {
          String value = environment.get(env);
          if (value != null && !value.isBlank()) {
            list.add(new Override(field, value.strip(), "environment variable " + env));
          }
        });
    new java.util.TreeMap<>(commandLine)
        .forEach((k, v) -> list.add(new Override(k, v, "--driver-set " + k)));
    return list;
  }
}
