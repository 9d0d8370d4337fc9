package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverConfigException;
import io.plumb.worker.DriverSettingsReader;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A driver file a driver must refuse before any run, as {@code bin/benchmark} reads it: the file
 * with its {@code --driver-set} overrides, handed to a new driver's {@code initialize}. What a test
 * then checks is the refusal's one line.
 */
public final class ConfigRefusal {

  private ConfigRefusal() {}

  /**
   * The message of the {@link DriverConfigException} that reading {@code file} with {@code
   * overrides}, or initializing a driver from {@code newDriver} with it, throws.
   *
   * @throws AssertionError when both succeed (the driver is closed first)
   */
  public static String messageOf(
      Supplier<? extends BenchmarkDriver> newDriver, Path file, Map<String, String> overrides)
      throws Exception {
    try (BenchmarkDriver driver = newDriver.get()) {
      driver.initialize(DriverSettingsReader.config(file, overrides));
    } catch (DriverConfigException e) {
      return e.getMessage();
    }
    throw new AssertionError(file + " with " + overrides + " was accepted, not refused");
  }

  /**
   * {@code file} is refused with {@code overrides} in exactly the line {@code afterFileName}
   * follows the file's name with (":2: field ...").
   *
   * @throws AssertionError otherwise
   */
  public static void assertRefused(
      Supplier<? extends BenchmarkDriver> newDriver,
      Path file,
      Map<String, String> overrides,
      String afterFileName)
      throws Exception {
    String refusal = messageOf(newDriver, file, overrides);
    if (!refusal.equals(file + afterFileName)) {
      throw new AssertionError("refused with\n  " + refusal + "\nnot\n  " + file + afterFileName);
    }
  }

  /**
   * Reading {@code file} is refused for its misspelled field {@code typo} on {@code line}, in one
   * line that names the file, the line and the field, suggests {@code meant} and lists the allowed
   * fields, {@code meant} among them.
   *
   * @throws AssertionError otherwise
   */
  public static void assertMisspelledField(
      Supplier<? extends BenchmarkDriver> newDriver, Path file, int line, String typo, String meant)
      throws Exception {
    String refusal = messageOf(newDriver, file, Map.of());
    String start =
        file + ":" + line + ": unknown field '" + typo + "' (did you mean '" + meant + "'?);";
    if (refusal.contains("\n") || !refusal.startsWith(start + " allowed: ")) {
      throw new AssertionError(
          "refused with\n  " + refusal + "\nnot one line starting\n  " + start);
    }
    if (!refusal.substring(start.length()).contains(meant)) {
      throw new AssertionError("the allowed fields do not list " + meant + ": " + refusal);
    }
  }
}
