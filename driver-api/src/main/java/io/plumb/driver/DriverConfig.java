package io.plumb.driver;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a driver is initialized with.
 *
 * @param file the driver's YAML file, for drivers that want its path (the framework has already
 *     parsed it into {@code settings})
 * @param settings the file's fields with the command line's {@code --driver-set key=value} values
 *     on top, so a user can point a shipped YAML at another cluster without editing it
 * @param environment the worker's environment variables, where a driver reads the ones it documents
 *     (e.g. {@code NATS_URL}; see {@link DriverSettings#withEnvironment}). A driver reads them
 *     here, never from {@code System.getenv()}, so that a test decides what it sees.
 */
public record DriverConfig(Path file, DriverSettings settings, Map<String, String> environment) {

  public DriverConfig {
    environment = Map.copyOf(environment);
  }

  /** The raw {@code --driver-set} values; {@link #settings} applies them to the file's fields. */
  public Map<String, String> overrides() {
    return settings.overrides();
  }
}
