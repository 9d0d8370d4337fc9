package io.plumb.loopback;

import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;

/**
 * The loopback driver's YAML.
 *
 * @param stallAfterMessages after this many messages (counted over all producers) one send blocks;
 *     0 never stalls
 * @param stallMillis how long that send blocks
 */
record LoopbackConfig(long stallAfterMessages, long stallMillis) {

  static LoopbackConfig read(DriverConfig config) throws DriverConfigException {
    DriverSettings settings = config.settings().ignore("name", "driverClass");
    long after = settings.longValue("stallAfterMessages", 0);
    if (after < 0) {
      throw settings.error("stallAfterMessages", "expected 0 or more, got " + after);
    }
    long millis = settings.longValue("stallMillis", 0);
    if (millis < 0 || millis > 3_600_000) {
      throw settings.error("stallMillis", "expected 0 to 3600000, got " + millis);
    }
    settings.finish();
    return new LoopbackConfig(after, millis);
  }
}
