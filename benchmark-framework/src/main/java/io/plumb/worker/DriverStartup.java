package io.plumb.worker;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BrokerUnreachableException;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.input.BadInputException;
import io.plumb.input.UnreachableBrokerException;
import io.plumb.input.YamlTree;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A driver file as the coordinator sent it, ready to start its driver with.
 *
 * @param file the file on this host, for drivers that want a path
 * @param setup what the coordinator sent: the file's name and text, and the overrides
 * @param tree the text, parsed
 * @param identity the driver the file names
 */
record DriverStartup(
    Path file, DriverSetup setup, YamlTree tree, DriverLoader.DriverIdentity identity) {

  static DriverStartup of(DriverSetup setup) {
    Path file = Path.of(setup.fileName());
    if (!Files.isRegularFile(file)) {
      // A remote coordinator sends the text: keep a private copy for drivers that want a path.
      try {
        file = Files.createTempFile("plumb-driver-", "-" + file.getFileName());
        Files.writeString(file, setup.yaml());
        file.toFile().deleteOnExit();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    // Parsed once, from the text the coordinator sent: the driver reads these settings.
    YamlTree tree = YamlTree.parse(setup.fileName(), setup.yaml());
    return new DriverStartup(file, setup, tree, DriverLoader.identify(setup.fileName(), tree));
  }

  /** Initialises {@code driver}, an instance of the named class, with the file's settings. */
  void initialize(BenchmarkDriver driver) {
    try {
      driver.initialize(
          new DriverConfig(
              file,
              DriverSettingsReader.fromTree(setup.fileName(), tree, setup.overrides()),
              System.getenv()));
    } catch (DriverConfigException e) {
      throw new BadInputException(e.getMessage());
    } catch (BrokerUnreachableException e) {
      throw new UnreachableBrokerException(e.getMessage());
    } catch (Exception e) {
      throw new WorkerException(
          "driver " + identity.driverClass() + " failed to initialise: " + e, e);
    }
  }
}
