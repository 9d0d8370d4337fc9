package io.plumb.driver;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a driver is initialized with.
 *
 * @param file the driver's YAML file, which the driver parses itself (only it knows its fields)
 * @param overrides settings given on the command line ({@code --driver-set key=value}) that take
 *     precedence over the file, so a user can point a shipped YAML at another cluster without
 *     editing it; a driver documents which keys it accepts and rejects the others
 */
public record DriverConfig(Path file, Map<String, String> overrides) {
  public DriverConfig {
    overrides = Map.copyOf(overrides);
  }
}
