package io.plumb.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps passwords, tokens and credentials out of what a run writes (the result's copy of the driver
 * file, its overrides, the environment): a result is shared, its driver file's secrets are not.
 */
final class Secrets {
  static final String MASK = "***";

  private static final Pattern SECRET_KEY =
      Pattern.compile("(?i).*(pass|secret|token|credential|sasl\\.jaas).*");

  /** The password of a URI's user information: {@code amqp://user:password@host}. */
  private static final Pattern URI_PASSWORD =
      Pattern.compile("(?<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\\s]+:)[^@/\\s]+@");

  /** A {@code key=value} line of a properties block (Kafka's producerConfig and the like). */
  private static final Pattern PROPERTY_LINE =
      Pattern.compile("(?m)^(\\s*([^=:#!\\s]+)\\s*[=:]).*$");

  private Secrets() {}

  /** The value, or the mask when its key names a secret; a URI's password masked either way. */
  static String mask(String key, String value) {
    return SECRET_KEY.matcher(key).matches() ? MASK : maskText(value);
  }

  /**
   * A copy of a parsed driver file with every secret masked: values of keys that name one, URI
   * passwords, and secret lines of properties blocks.
   */
  static JsonNode maskTree(JsonNode node) {
    JsonNode copy = node.deepCopy();
    maskInPlace(copy);
    return copy;
  }

  private static void maskInPlace(JsonNode node) {
    if (node instanceof ObjectNode object) {
      Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        JsonNode value = field.getValue();
        if (SECRET_KEY.matcher(field.getKey()).matches() && value.isValueNode()) {
          field.setValue(TextNode.valueOf(MASK));
        } else if (value.isTextual()) {
          field.setValue(TextNode.valueOf(maskText(value.asText())));
        } else {
          maskInPlace(value);
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        if (array.get(i).isTextual()) {
          array.set(i, TextNode.valueOf(maskText(array.get(i).asText())));
        } else {
          maskInPlace(array.get(i));
        }
      }
    }
  }

  /** Text with URI passwords and the values of secret properties lines masked. */
  static String maskText(String text) {
    String masked = URI_PASSWORD.matcher(text).replaceAll("${scheme}" + MASK + "@");
    if (masked.indexOf('\n') < 0 && !masked.contains("=")) {
      return masked;
    }
    return PROPERTY_LINE
        .matcher(masked)
        .replaceAll(
            line ->
                SECRET_KEY.matcher(line.group(2)).matches()
                    ? Matcher.quoteReplacement(line.group(1) + MASK)
                    : Matcher.quoteReplacement(line.group()));
  }
}
