package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverConfigException;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every driver's {@code Omb*DriverFieldsTest} starts from: OMB's driver file written out and
 * read into the driver's settings before each test, and the check that {@code bin/benchmark} finds
 * the driver by the file's {@code name} and {@code driverClass}. A driver's test extends it, names
 * its file, and checks the other fields one by one.
 *
 * @param <C> the driver's settings type
 */
public abstract class OmbDriverFieldsContract<C> {

  @TempDir Path dir;

  private final String fileName;
  private final String yaml;
  private final OmbDriverFile.SettingsReader<C> reader;
  private final String name;
  private final Class<? extends BenchmarkDriver> driverClass;
  private OmbDriverFile<C> omb;

  /**
   * @param fileName the name OMB gives the file ("nats.yaml")
   * @param yaml the file's content
   * @param reader how the driver reads its settings from the file's fields
   * @param name the file's {@code name}, the driver's display name in results
   * @param driverClass the Plumb driver that OMB's {@code driverClass} loads
   */
  protected OmbDriverFieldsContract(
      String fileName,
      String yaml,
      OmbDriverFile.SettingsReader<C> reader,
      String name,
      Class<? extends BenchmarkDriver> driverClass) {
    this.fileName = fileName;
    this.yaml = yaml;
    this.reader = reader;
    this.name = name;
    this.driverClass = driverClass;
  }

  @BeforeEach
  void readOmbFile() throws IOException, DriverConfigException {
    omb = OmbDriverFile.write(dir, fileName, yaml, reader);
  }

  /**
   * OMB: the driver's display name, in results, and the class OMB loads; Plumb loads its own driver
   * under that name.
   */
  @Test
  void nameAndDriverClass() {
    DriverFiles.assertLoadsAs(omb.file(), name, driverClass);
  }

  /** The driver's settings from OMB's file. */
  protected C settings() {
    return omb.settings();
  }

  /** The driver's settings from a variant of OMB's file: see {@link OmbDriverFile#variant}. */
  protected C variant(String yaml) throws IOException, DriverConfigException {
    return omb.variant(yaml);
  }
}
