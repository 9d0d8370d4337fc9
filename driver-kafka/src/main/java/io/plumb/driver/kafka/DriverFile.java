package io.plumb.driver.kafka;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.plumb.driver.DriverConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A parsed Kafka driver file plus its text, so every error can name the file, the line and the
 * field in one line instead of a Jackson stack trace.
 *
 * @param path the file as the user named it
 * @param lines the file's lines, to locate fields and properties for error messages
 * @param config the parsed fields
 */
record DriverFile(Path path, List<String> lines, KafkaDriverConfig config) {

  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  DriverFile {
    lines = List.copyOf(lines);
  }

  /** Reads and parses {@code path}, rejecting unknown fields and values of the wrong type. */
  static DriverFile load(Path path) throws DriverConfigException {
    String text;
    try {
      text = Files.readString(path);
    } catch (IOException e) {
      throw new DriverConfigException(path + ": cannot read the driver file: " + e);
    }
    List<String> lines = text.lines().toList();
    KafkaDriverConfig config;
    try {
      config = YAML.readValue(text, KafkaDriverConfig.class);
    } catch (UnrecognizedPropertyException e) {
      throw new DriverConfigException(
          at(path, lines, e.getPropertyName(), e.getLocation())
              + "field '"
              + e.getPropertyName()
              + "': unknown field"
              + Spelling.didYouMean(e.getPropertyName(), KafkaDriverConfig.FIELDS)
              + "; allowed: "
              + String.join(", ", KafkaDriverConfig.FIELDS));
    } catch (MismatchedInputException e) {
      throw new DriverConfigException(
          at(path, lines, mismatchedField(e), e.getLocation()) + describeMismatch(e));
    } catch (JsonProcessingException e) {
      throw new DriverConfigException(
          at(path, lines, null, e.getLocation())
              + "not valid YAML: "
              + firstLine(e.getOriginalMessage()));
    }
    if (config == null) {
      throw new DriverConfigException(
          path
              + ":1: the driver file is empty; fields: "
              + String.join(", ", KafkaDriverConfig.FIELDS));
    }
    return new DriverFile(path, lines, config);
  }

  /** A configuration error located at a top-level field of this file. */
  DriverConfigException fieldError(String field, String message) {
    return new DriverConfigException(
        path + ":" + lineOf(field) + ": field '" + field + "': " + message);
  }

  /** A configuration error located at one property inside a properties block of this file. */
  DriverConfigException propertyError(String field, String key, String message) {
    return new DriverConfigException(
        path + ":" + lineOf(field, key) + ": field '" + field + "': " + message);
  }

  /** The 1-based line where a top-level field starts, or 1 when it is not written in the file. */
  int lineOf(String field) {
    int line = lineOf(lines, field);
    return line > 0 ? line : 1;
  }

  /** The 1-based line where a top-level field starts, or 0. */
  private static int lineOf(List<String> lines, String field) {
    Pattern fieldStart = Pattern.compile("^" + Pattern.quote(field) + "\\s*:");
    for (int i = 0; i < lines.size(); i++) {
      if (fieldStart.matcher(lines.get(i)).find()) {
        return i + 1;
      }
    }
    return 0;
  }

  /** The line of {@code key} inside the block of {@code field}, or the field's own line. */
  int lineOf(String field, String key) {
    int fieldLine = lineOf(field);
    Pattern keyStart = Pattern.compile("^\\s+" + Pattern.quote(key) + "\\s*([=:\\s]|$)");
    for (int i = fieldLine; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
        break; // the next top-level field: the block ended
      }
      if (keyStart.matcher(line).find()) {
        return i + 1;
      }
    }
    return fieldLine;
  }

  /** The top-level field a type mismatch is about, or null when it is about the whole file. */
  private static String mismatchedField(MismatchedInputException e) {
    List<JsonMappingException.Reference> path = e.getPath();
    return path.isEmpty() ? null : path.get(0).getFieldName();
  }

  private static String describeMismatch(MismatchedInputException e) {
    String field = mismatchedField(e);
    if (field == null) {
      return "expected a mapping with the fields " + String.join(", ", KafkaDriverConfig.FIELDS);
    }
    Class<?> type = e.getTargetType();
    String expected;
    if (type == String.class) {
      expected = "expected a text block of key=value lines (write `" + field + ": |`)";
    } else if (type == Short.class || type == short.class) {
      expected = "expected a whole number from 1 to 32767";
    } else if (type == Boolean.class || type == boolean.class) {
      expected = "expected true or false";
    } else {
      expected = firstLine(e.getOriginalMessage());
    }
    return "field '" + field + "': " + expected;
  }

  /**
   * "file:line: ". Jackson's location is where the parser stopped, which for a record can be the
   * end of the file (it reads every field before building it), so a named field is located in the
   * text instead.
   */
  private static String at(Path path, List<String> lines, String field, JsonLocation location) {
    int line = field == null ? 0 : lineOf(lines, field);
    if (line == 0) {
      line = location == null ? 1 : Math.max(1, location.getLineNr());
    }
    return path + ":" + line + ": ";
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).trim();
  }
}
