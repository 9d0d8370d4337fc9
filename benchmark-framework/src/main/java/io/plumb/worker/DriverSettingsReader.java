package io.plumb.worker;

import io.plumb.driver.DriverConfig;
import io.plumb.driver.DriverConfigException;
import io.plumb.driver.DriverSettings;
import io.plumb.input.BadInputException;
import io.plumb.input.InputFiles;
import io.plumb.input.YamlTree;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

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

  /**
   * What a driver is initialised with for {@code file}, with no environment variables: for tests
   * and tools that run a driver, which see the same whatever the shell they run in has set.
   */
  public static DriverConfig config(Path file, Map<String, String> overrides)
      throws DriverConfigException {
    return config(file, overrides, Map.of());
  }

  /** As {@link #config(Path, Map)}, with {@code environment} as the worker's variables. */
  public static DriverConfig config(
      Path file, Map<String, String> overrides, Map<String, String> environment)
      throws DriverConfigException {
    String text = readDriverFile(file, DriverConfigException::new);
    return new DriverConfig(file, fromText(file.toString(), text, overrides), environment);
  }

  /**
   * A driver file's text, refused in the caller's terms: the command line's bad input, or a
   * driver's configuration error for tests and tools that run a driver.
   */
  static <E extends Exception> String readDriverFile(Path file, Function<String, E> refusal)
      throws E {
    return InputFiles.read(file, "driver file not found", "cannot read the driver file", refusal);
  }

  static YamlTree parse(String fileName, String yaml) throws DriverConfigException {
    try {
      return YamlTree.parse(fileName, yaml);
    } catch (BadInputException e) {
      throw new DriverConfigException(e.getMessage());
    }
  }
}
