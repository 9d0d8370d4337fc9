package io.plumb.worker;

import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.input.BadInputException;
import io.plumb.input.YamlTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Builds the {@link DriverSettings} a driver reads from its YAML text: the framework parses every
 * driver file the same way, so every driver reports mistakes with the same file:line messages.
 */
public final class DriverSettingsReader {
  private DriverSettingsReader() {}

  /** Settings from the text of a driver file, which a remote worker receives instead of a path. */
  public static DriverSettings fromText(String fileName, String yaml, Map<String, String> overrides)
      throws DriverConfigException {
    return fromTree(fileName, parse(fileName, yaml), overrides);
  }

  /** Settings from an already parsed file. */
  public static DriverSettings fromTree(
      String fileName, YamlTree tree, Map<String, String> overrides) {
    return DriverSettings.of(fileName, tree.values(), tree.lines(), overrides);
  }

  /** What a driver is initialised with for {@code file}: for tests and tools that run a driver. */
  public static DriverConfig config(Path file, Map<String, String> overrides)
      throws DriverConfigException {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new DriverConfigException(file + ": driver file not found");
    } catch (IOException e) {
      throw new DriverConfigException(file + ": cannot read the driver file: " + e.getMessage());
    }
    return new DriverConfig(file, fromText(file.toString(), text, overrides));
  }

  static YamlTree parse(String fileName, String yaml) throws DriverConfigException {
    try {
      return YamlTree.parse(fileName, yaml);
    } catch (BadInputException e) {
      throw new DriverConfigException(e.getMessage());
    }
  }
}
