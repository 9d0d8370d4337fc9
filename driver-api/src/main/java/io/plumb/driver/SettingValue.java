package io.plumb.driver;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One setting's value with where it came from, converted to a type on demand. Every conversion
 * fails the same way: {@code <where>: expected <what>, got <value>}.
 *
 * @param raw a YAML scalar (String, Boolean, a whole Number, Double), a mapping or a list as the
 *     file has it, or the text given on the command line or in the environment
 * @param where how a message names the value's origin: {@code file:line: field 'x'} or {@code
 *     --driver-set x=v}
 */
record SettingValue(Object raw, String where) {

  /** A conversion of a value, as the typed getters of {@link DriverSettings} apply it. */
  @FunctionalInterface
  interface Conversion<T> {
    T apply(SettingValue value) throws DriverConfigException;
  }

  /** How a message shows a value: text quoted, a mapping or list by its kind. */
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

  private DriverConfigException wrong(String expected) {
    return new DriverConfigException(where + ": expected " + expected + ", got " + describe(raw));
  }

  String text() throws DriverConfigException {
    if (raw instanceof String || raw instanceof Number || raw instanceof Boolean) {
      return String.valueOf(raw);
    }
    throw wrong("text");
  }

  /** A whole number from {@code min} to {@code max}; text may use {@code _} between digits. */
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

  /** The constant whose name or {@code toString()} matches, ignoring case. */
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

  /** A sequence of scalars, comma-separated text, or one scalar as a list of one. */
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
