package io.plumb.testkit;

import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * An OMB driver file a test writes out and reads into a driver's own settings as {@code
 * bin/benchmark} would (no overrides, no broker), with variants of it: what a driver's {@code
 * Omb*DriverFieldsTest} checks field by field.
 *
 * @param <C> the driver's settings type
 */
public final class OmbDriverFile<C> {

  /** How the driver reads its settings from a file's fields. */
  @FunctionalInterface
  public interface SettingsReader<C> {
    C read(DriverSettings fields) throws DriverConfigException;
  }

  private final Path dir;
  private final Path file;
  private final SettingsReader<C> reader;
  private final C settings;

  private OmbDriverFile(Path dir, Path file, SettingsReader<C> reader, C settings) {
    this.dir = dir;
    this.file = file;
    this.reader = reader;
    this.settings = settings;
  }

  /** Writes {@code yaml} to {@code dir/name} and reads it with {@code reader}. */
  public static <C> OmbDriverFile<C> write(
      Path dir, String name, String yaml, SettingsReader<C> reader)
      throws IOException, DriverConfigException {
    Path file = Files.writeString(dir.resolve(name), yaml);
    return new OmbDriverFile<>(dir, file, reader, read(file, reader));
  }

  /** The file as written, for a check of how {@code bin/benchmark} finds its driver. */
  public Path file() {
    return file;
  }

  /** The driver's settings from the file. */
  public C settings() {
    return settings;
  }

  /**
   * The driver's settings from a variant of the file ({@code variant.yaml} beside it), for a field
   * OMB's file leaves out or a value other than OMB's.
   */
  public C variant(String yaml) throws IOException, DriverConfigException {
    return read(Files.writeString(dir.resolve("variant.yaml"), yaml), reader);
  }

  private static <C> C read(Path file, SettingsReader<C> reader) throws DriverConfigException {
    return DriverFiles.settings(file, Map.of(), reader);
  }
}
