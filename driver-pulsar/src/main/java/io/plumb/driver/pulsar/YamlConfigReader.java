package io.plumb.driver.pulsar;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.plumb.driver.DriverConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a driver YAML into a config record, applying {@code --driver-set} overrides, and turns
 * every Jackson error into the one-line {@code <file>:<line>: field '<name>': <what is allowed>}
 * message the framework prints. Strict: unknown fields are errors, because a misspelled durability
 * setting that is silently ignored produces a benchmark of the wrong configuration.
 */
final class YamlConfigReader {

  private final ObjectMapper mapper =
      JsonMapper.builder(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
          .build();

  /**
   * Parses {@code file} as {@code type}, then applies {@code overrides} (dotted field paths, e.g.
   * {@code amqpUris} or {@code client.serviceUrl}; a comma-separated value fills a list field).
   */
  <T> T read(Path file, Class<T> type, Map<String, String> overrides) throws DriverConfigException {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new DriverConfigException(file + ": cannot read driver file: " + e.getMessage());
    }
    T fromFile;
    try {
      // Parsing the text (not a tree) keeps each error's line number.
      fromFile = mapper.readValue(text, type);
    } catch (JsonProcessingException e) {
      throw describe(file.toString(), text, e);
    }
    if (fromFile == null) {
      throw new DriverConfigException(file + ": driver file is empty");
    }
    if (overrides.isEmpty()) {
      return fromFile;
    }
    JsonNode tree;
    try {
      tree = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw describe(file.toString(), text, e);
    }
    if (!(tree instanceof ObjectNode root)) {
      throw new DriverConfigException(file + ": driver file must be a mapping of fields");
    }
    for (Map.Entry<String, String> e : overrides.entrySet()) {
      set(root, e.getKey(), e.getValue());
    }
    try {
      return mapper.treeToValue(root, type);
    } catch (JsonProcessingException e) {
      throw describeOverride(overrides, e);
    }
  }

  /**
   * An error for a field whose value parsed but is not allowed (checked after parsing), located on
   * the field's line when the file sets it, else naming the file only (the value came from a
   * default or an override).
   */
  static DriverConfigException invalid(
      Path file, Map<String, String> overrides, String field, String what) {
    if (overrides.containsKey(field)) {
      return new DriverConfigException(
          "--driver-set " + field + "=" + overrides.get(field) + ": " + what);
    }
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      text = "";
    }
    int line = lineOf(null, text, field);
    String where = line > 0 ? file + ":" + line : file.toString();
    return new DriverConfigException(where + ": field '" + field + "': " + what);
  }

  private DriverConfigException describe(String file, String text, JsonProcessingException e) {
    String field = fieldPath(e);
    int line = lineOf(e, text, field);
    String where = line > 0 ? file + ":" + line : file;
    if (e instanceof UnrecognizedPropertyException u) {
      return new DriverConfigException(
          where
              + ": field '"
              + field
              + "': unknown field"
              + suggestion(u.getPropertyName(), u.getKnownPropertyIds())
              + "; allowed: "
              + sorted(u.getKnownPropertyIds()));
    }
    if (e instanceof InvalidFormatException f) {
      return new DriverConfigException(
          where + ": field '" + field + "': " + invalidValue(f) + allowedValues(f.getTargetType()));
    }
    if (!field.isEmpty()) {
      return new DriverConfigException(where + ": field '" + field + "': " + firstLine(e));
    }
    return new DriverConfigException(where + ": " + firstLine(e));
  }

  private static DriverConfigException describeOverride(
      Map<String, String> overrides, JsonProcessingException e) {
    String field = fieldPath(e);
    String given = overrides.containsKey(field) ? "=" + overrides.get(field) : "";
    if (e instanceof UnrecognizedPropertyException u) {
      return new DriverConfigException(
          "--driver-set "
              + field
              + ": unknown key"
              + suggestion(u.getPropertyName(), u.getKnownPropertyIds())
              + "; allowed: "
              + sorted(u.getKnownPropertyIds()));
    }
    String what =
        e instanceof InvalidFormatException f
            ? invalidValue(f) + allowedValues(f.getTargetType())
            : firstLine(e);
    return new DriverConfigException("--driver-set " + field + given + ": " + what);
  }

  /** Sets a dotted path in the tree, creating intermediate mappings. */
  private static void set(ObjectNode root, String dottedKey, String value) {
    String[] parts = dottedKey.split("\\.");
    ObjectNode node = root;
    for (int i = 0; i < parts.length - 1; i++) {
      JsonNode child = node.get(parts[i]);
      if (!(child instanceof ObjectNode)) {
        child = node.putObject(parts[i]);
      }
      node = (ObjectNode) child;
    }
    String last = parts[parts.length - 1];
    JsonNode existing = node.get(last);
    if (existing instanceof ArrayNode || (existing == null && value.contains(","))) {
      ArrayNode array = JsonNodeFactory.instance.arrayNode();
      Arrays.stream(value.split(",")).map(String::trim).forEach(array::add);
      node.set(last, array);
    } else {
      node.put(last, value);
    }
  }

  private static String fieldPath(JsonProcessingException e) {
    if (!(e instanceof JsonMappingException m)) {
      return "";
    }
    return m.getPath().stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining("."))
        .replace(".[", "[");
  }

  /**
   * The line of the field's key. The YAML parser reports where it stopped, which is often the line
   * after the key, so search back from there for the key; without a location, the first line where
   * the key appears.
   */
  private static int lineOf(JsonProcessingException e, String text, String fieldPath) {
    JsonLocation location = e == null ? null : e.getLocation();
    int reported = location != null && location.getLineNr() > 0 ? location.getLineNr() : -1;
    if (fieldPath.isEmpty()) {
      return reported;
    }
    String leaf = fieldPath.substring(fieldPath.lastIndexOf('.') + 1).replaceAll("\\[\\d+]$", "");
    Pattern key = Pattern.compile("^\\s*(?:- )?" + Pattern.quote(leaf) + "\\s*:");
    String[] lines = text.split("\n", -1);
    int from = reported > 0 ? Math.min(reported, lines.length) : lines.length;
    if (reported > 0) {
      for (int i = from; i >= 1; i--) {
        if (key.matcher(lines[i - 1]).find()) {
          return i;
        }
      }
      return reported;
    }
    for (int i = 1; i <= lines.length; i++) {
      if (key.matcher(lines[i - 1]).find()) {
        return i;
      }
    }
    return -1;
  }

  private static String invalidValue(InvalidFormatException f) {
    return "'" + f.getValue() + "' is not a valid " + f.getTargetType().getSimpleName();
  }

  private static String allowedValues(Class<?> type) {
    if (type != null && type.isEnum()) {
      return "; allowed: "
          + Arrays.stream(type.getEnumConstants())
              .map(Object::toString)
              .collect(Collectors.joining(", "));
    }
    return "";
  }

  private static String suggestion(String given, Collection<Object> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Object k : known) {
      int d = distance(given.toLowerCase(), k.toString().toLowerCase());
      if (d < bestDistance) {
        bestDistance = d;
        best = k.toString();
      }
    }
    return best != null && bestDistance <= Math.max(2, given.length() / 4)
        ? " (did you mean '" + best + "'?)"
        : "";
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static String sorted(Collection<Object> known) {
    return known.stream()
        .map(Object::toString)
        .collect(Collectors.toCollection(TreeSet::new))
        .stream()
        .collect(Collectors.joining(", "));
  }

  private static String firstLine(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    if (message == null) {
      return e.getClass().getSimpleName();
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).trim();
  }
}
