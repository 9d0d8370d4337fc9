package io.plumb.input;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A YAML mapping as plain JDK values (nested maps, lists, String, Boolean, Long or BigInteger,
 * Double, null) with the line of every key by its dotted path, so whoever reads it can name the
 * line of any field without Jackson types.
 *
 * @param values the top-level mapping, in file order; empty for an empty file
 * @param lines the 1-based line of each key, e.g. {@code client.serviceUrl}
 */
public record YamlTree(Map<String, Object> values, Map<String, Integer> lines) {
  private static final YAMLFactory FACTORY = new YAMLFactory();

  /** YAML 1.1's not-a-number and infinities, as Jackson's YAML parser reads them as floats. */
  private static final Pattern NON_FINITE =
      Pattern.compile("[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");

  /** "file:line: field 'x'", for {@code field} of this tree read from {@code fileName}. */
  public String where(String fileName, String field) {
    return where(fileName, lines.get(field), field);
  }

  /**
   * "file:line: field 'x'" (without the line when it is not known): every field complaint's start.
   */
  static String where(Object file, Integer line, String field) {
    return file + (line == null ? "" : ":" + line) + ": field '" + field + "'";
  }

  /**
   * Parses {@code text}; {@code fileName} only names the file in messages. Duplicate keys are
   * rejected: YAML would keep the last silently.
   */
  public static YamlTree parse(String fileName, String text) {
    Map<String, Integer> lines = new HashMap<>();
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return new YamlTree(Map.of(), Map.of());
      }
      if (first != JsonToken.START_OBJECT) {
        throw new BadInputException(fileName + ": expected a YAML mapping of field: value lines");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> values = (Map<String, Object>) value(fileName, parser, "", lines);
      return new YamlTree(values, Map.copyOf(lines));
    } catch (JsonProcessingException e) {
      throw new BadInputException(
          fileName + lineOf(e.getLocation()) + ": not valid YAML: " + firstLine(e));
    } catch (IOException e) {
      throw new BadInputException(fileName + ": cannot read: " + e.getMessage());
    }
  }

  private static Object value(
      String fileName, JsonParser parser, String path, Map<String, Integer> lines)
      throws IOException {
    switch (parser.currentToken()) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          String key = path + name;
          int line = parser.currentTokenLocation().getLineNr();
          if (map.containsKey(name)) {
            throw new BadInputException(
                fileName
                    + ":"
                    + line
                    + ": field '"
                    + key
                    + "' appears twice (first on line "
                    + lines.get(key)
                    + ")");
          }
          lines.put(key, line);
          parser.nextToken();
          map.put(name, value(fileName, parser, key + ".", lines));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        int index = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          list.add(value(fileName, parser, path + "[" + index++ + "].", lines));
        }
        return list;
      }
      case VALUE_STRING -> {
        return parser.getText();
      }
      case VALUE_NUMBER_INT -> {
        return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            ? parser.getBigIntegerValue()
            : (Object) parser.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return finite(fileName, parser, path);
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> {
        return parser.getText();
      }
    }
  }

  /**
   * A float's value, refused when it is not finite: YAML's {@code .nan} and {@code .inf} (which
   * Jackson can only call malformed, without the field) or a figure beyond a double's range. No
   * field of a workload, driver file or plan means anything by them.
   */
  private static double finite(String fileName, JsonParser parser, String path) throws IOException {
    String text = parser.getText();
    double number = NON_FINITE.matcher(text).matches() ? Double.NaN : parser.getDoubleValue();
    if (!Double.isFinite(number)) {
      // The path of a value ends in the dot its nested keys would follow, and a list's items are
      // keyed "list.[i]": the user reads "list[i]".
      String field = path.substring(0, path.length() - 1).replace(".[", "[");
      throw new BadInputException(
          where(fileName, parser.currentTokenLocation().getLineNr(), field)
              + ": expected a finite number, got "
              + text);
    }
    return number;
  }

  private static String lineOf(JsonLocation location) {
    return location == null || location.getLineNr() <= 0 ? "" : ":" + location.getLineNr();
  }

  private static String firstLine(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    return message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("");
  }
}
