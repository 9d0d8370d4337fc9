package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverConfigException;
import io.plumb.worker.DriverLoader;
import io.plumb.worker.DriverLoader.DriverIdentity;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * How {@code bin/benchmark} finds a driver from a driver file and initializes it, as a test does.
 */
public final class DriverFiles {

  private DriverFiles() {}

  /**
   * {@code file} names itself {@code name}, and its {@code driverClass} (OMB's class name, in an
   * OMB file) loads a {@code type}, as a run would; the driver is created, not initialized, so no
   * broker is needed.
   *
   * @throws AssertionError otherwise
   */
  public static void assertLoadsAs(Path file, String name, Class<? extends BenchmarkDriver> type) {
    DriverIdentity identity = DriverLoader.identify(file);
    if (!name.equals(identity.name())) {
      throw new AssertionError(file + " is named '" + identity.name() + "', not '" + name + "'");
    }
    BenchmarkDriver driver = DriverLoader.instantiate(file, identity.driverClass());
    if (!type.isInstance(driver)) {
      throw new AssertionError(
          file
              + "'s driverClass "
              + identity.driverClass()
              + " loads a "
              + driver.getClass().getName()
              + ", not a "
              + type.getName());
    }
  }

  /**
   * A driver from {@code newDriver}, initialized from {@code file} with its {@code --driver-set}
   * {@code overrides} as {@code bin/benchmark} reads them; the caller closes it.
   */
  public static <D extends BenchmarkDriver> D open(
      Supplier<D> newDriver, Path file, Map<String, String> overrides) throws Exception {
    D driver = newDriver.get();
    driver.initialize(DriverSettingsReader.config(file, overrides));
    return driver;
  }

  /**
   * A driver's own settings from {@code file} with its {@code --driver-set} {@code overrides}, read
   * by {@code reader} as the driver reads them at initialize: what a test checks a driver's
   * settings (or the facts it derives from them) by without a broker.
   *
   * @throws DriverConfigException if the file or an override is refused, as a run would refuse it
   */
  public static <C> C settings(
      Path file, Map<String, String> overrides, OmbDriverFile.SettingsReader<C> reader)
      throws DriverConfigException {
    return reader.read(DriverSettingsReader.config(file, overrides).settings());
  }
}
