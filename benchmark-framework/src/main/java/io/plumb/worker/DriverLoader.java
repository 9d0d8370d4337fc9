package io.plumb.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverAliases;
import io.plumb.input.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Finds the driver a driver YAML names. Only classes implementing {@link BenchmarkDriver} are ever
 * instantiated: registered drivers (and their aliases, such as OpenMessaging Benchmark class names)
 * are matched without loading anything else, and an unregistered class name is checked for the
 * interface before it is initialised.
 */
public final class DriverLoader {
  private static final YAMLMapper MAPPER = new YAMLMapper();

  private DriverLoader() {}

  /** The {@code name} and {@code driverClass} of a driver file; the driver reads the rest. */
  public record DriverIdentity(String name, String driverClass) {}

  public static DriverIdentity identify(Path file) {
    JsonNode tree;
    try {
      tree = MAPPER.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new BadInputException(file + ": driver file not found");
    } catch (IOException e) {
      throw new BadInputException(
          file
              + ": not a readable YAML driver file: "
              + e.getMessage().lines().findFirst().orElse(""));
    }
    if (tree == null || !tree.isObject()) {
      throw new BadInputException(
          file + ": expected a YAML mapping with at least 'name' and 'driverClass'");
    }
    JsonNode driverClass = tree.get("driverClass");
    if (driverClass == null || !driverClass.isTextual() || driverClass.asText().isBlank()) {
      throw new BadInputException(
          file
              + ": missing field 'driverClass' (installed drivers: "
              + String.join(", ", installed())
              + ")");
    }
    JsonNode name = tree.get("name");
    String fallbackName = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
    return new DriverIdentity(
        name != null && name.isTextual() ? name.asText() : fallbackName,
        driverClass.asText().trim());
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
