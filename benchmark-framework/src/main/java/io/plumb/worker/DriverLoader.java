package io.plumb.worker;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverAliases;
import io.plumb.input.BadInputException;
import io.plumb.input.YamlTree;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Finds the driver a driver YAML names. Only classes implementing {@link BenchmarkDriver} are ever
 * instantiated: registered drivers (and their aliases, such as OpenMessaging Benchmark class names)
 * are matched without loading anything else, and an unregistered class name is checked for the
 * interface before it is initialised.
 */
public final class DriverLoader {
  private DriverLoader() {}

  /** The {@code name} and {@code driverClass} of a driver file; the driver reads the rest. */
  public record DriverIdentity(String name, String driverClass) {}

  public static DriverIdentity identify(Path file) {
    String text = DriverSettingsReader.readDriverFile(file, BadInputException::new);
    return identify(file.toString(), YamlTree.parse(file.toString(), text));
  }

  /** The identity of a parsed driver file; {@code fileName} only names it in messages. */
  public static DriverIdentity identify(String fileName, YamlTree tree) {
    Object driverClass = tree.values().get("driverClass");
    if (driverClass != null && !(driverClass instanceof String)) {
      throw new BadInputException(
          tree.where(fileName, "driverClass")
              + ": expected a class name, got "
              + describe(driverClass)
              + " (installed drivers: "
              + String.join(", ", installed())
              + ")");
    }
    if (!(driverClass instanceof String text) || text.isBlank()) {
      throw new BadInputException(
          fileName
              + ": missing field 'driverClass' (installed drivers: "
              + String.join(", ", installed())
              + ")");
    }
    Object name = tree.values().get("name");
    // The result's driver name: a list, a mapping or blank text would name it "" without a word.
    if (name instanceof Number || name instanceof Boolean) {
      name = String.valueOf(name);
    }
    if (name != null && (!(name instanceof String given) || given.isBlank())) {
      throw new BadInputException(
          tree.where(fileName, "name") + ": expected text, got " + describe(name));
    }
    String fallbackName = Path.of(fileName).getFileName().toString().replaceFirst("\\.ya?ml$", "");
    return new DriverIdentity(name instanceof String given ? given : fallbackName, text.trim());
  }

  private static String describe(Object value) {
    if (value instanceof Map<?, ?>) {
      return "a mapping";
    }
    if (value instanceof List<?>) {
      return "a list";
    }
    return value instanceof String text ? "'" + text + "'" : String.valueOf(value);
  }

  public static BenchmarkDriver instantiate(Path file, String driverClass) {
    for (ServiceLoader.Provider<BenchmarkDriver> provider :
        ServiceLoader.load(BenchmarkDriver.class).stream().toList()) {
      Class<? extends BenchmarkDriver> type = provider.type();
      DriverAliases aliases = type.getAnnotation(DriverAliases.class);
      if (type.getName().equals(driverClass)
          || (aliases != null && Arrays.asList(aliases.value()).contains(driverClass))) {
        return provider.get();
      }
    }
    Class<?> type;
    try {
      type = Class.forName(driverClass, false, DriverLoader.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new BadInputException(
          file
              + ": field 'driverClass': no driver '"
              + driverClass
              + "' on the classpath (installed drivers: "
              + String.join(", ", installed())
              + ")");
    }
    if (!BenchmarkDriver.class.isAssignableFrom(type)) {
      throw new BadInputException(
          file
              + ": field 'driverClass': "
              + driverClass
              + " does not implement "
              + BenchmarkDriver.class.getName()
              + "; refusing to load it");
    }
    try {
      return (BenchmarkDriver) type.getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new BadInputException(
          file + ": field 'driverClass': cannot create " + driverClass + ": " + e);
    }
  }

  /** Registered driver classes with their aliases, for error messages and --help. */
  public static List<String> installed() {
    List<String> names = new ArrayList<>();
    for (ServiceLoader.Provider<BenchmarkDriver> provider :
        ServiceLoader.load(BenchmarkDriver.class).stream().toList()) {
      names.add(provider.type().getName());
    }
    names.sort(null);
    return names;
  }
}
