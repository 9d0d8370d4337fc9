package io.plumb.loopback;

import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.input.BadInputException;
import io.plumb.input.YamlFields;

/**
 * The loopback driver's YAML.
 *
 * @param stallAfterMessages after this many messages (counted over all producers) one send blocks;
 *     0 never stalls
 * @param stallMillis how long that send blocks
 */
record LoopbackConfig(long stallAfterMessages, long stallMillis) {

  static LoopbackConfig read(DriverConfig config) throws DriverConfigException {
    if (!config.overrides().isEmpty()) {
      throw new DriverConfigException(
          config.file()
              + ": --driver-set "
              + config.overrides().keySet().iterator().next()
              + ": the loopback driver takes no overrides");
    }
    try {
      YamlFields fields = YamlFields.read(config.file());
      fields.string("name");
      fields.string("driverClass");
      long after = fields.whole("stallAfterMessages", 0, Long.MAX_VALUE).orElse(0L);
      long millis = fields.whole("stallMillis", 0, 3_600_000).orElse(0L);
      fields.rejectUnknownFields();
      return new LoopbackConfig(after, millis);
    } catch (BadInputException e) {
      throw new DriverConfigException(e.getMessage());
    }
  }
}
