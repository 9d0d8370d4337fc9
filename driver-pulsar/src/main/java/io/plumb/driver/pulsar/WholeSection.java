package io.plumb.driver.pulsar;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;

/**
 * Reads one section of the driver file whole: its fields into a value, then every field the reader
 * did not take refused, so that a misspelled field fails the run with its file and line rather than
 * leaving a default silently in place.
 */
final class WholeSection {

  /** Reads a section's fields into a value; leaves refusing the rest to {@link WholeSection}. */
  @FunctionalInterface
  interface Reader<T> {
    T read(DriverSettings section) throws DriverConfigException;
  }

  private WholeSection() {}

  static <T> T read(DriverSettings section, Reader<T> reader) throws DriverConfigException {
    T value = reader.read(section);
    section.finish();
    return value;
  }
}
