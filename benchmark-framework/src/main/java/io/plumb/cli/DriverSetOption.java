package io.plumb.cli;

import io.plumb.driver.DriverSettings;
import io.plumb.input.BadInputException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --driver-set KEY=VALUE}, repeatable: the driver settings it overrides, in the order given.
 * A key given twice is refused: a map option would keep the last value without a word, and which of
 * two values a run used is no question a result should leave open.
 */
final class DriverSetOption {
  private static final String EXAMPLE = "e.g. --driver-set bootstrap.servers=10.0.0.5:9092";

  private DriverSetOption() {}

  static Map<String, String> parse(List<String> values) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String value : values) {
      int equals = value.indexOf('=');
      if (equals <= 0) {
        throw new BadInputException("--driver-set " + value + ": expected KEY=VALUE, " + EXAMPLE);
      }
      String key = value.substring(0, equals);
      String setting = value.substring(equals + 1);
      // The framework reads both from the file alone (the result's name, the class it loads): an
      // override of either would be accepted and change nothing.
      if (DriverSettings.FRAMEWORK_FIELDS.contains(key)) {
        throw new BadInputException(
            "--driver-set "
                + value
                + ": a driver's name and driverClass come from its file; copy the file to change"
                + " them");
      }
      if (settings.containsKey(key)) {
        throw new BadInputException(
            "--driver-set "
                + key
                + ": given twice ("
                + key
                + "="
                + settings.get(key)
                + ", then "
                + value
                + "); give each setting once");
      }
      settings.put(key, setting);
    }
    return settings;
  }
}
