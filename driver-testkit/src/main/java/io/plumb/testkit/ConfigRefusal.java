package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverConfigException;
import io.plumb.worker.DriverSettingsReader;
import java.io.IOException;
import java.nio.file.Files;
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
   * The driver file {@code yaml}, written to {@code dir}, is refused with {@code overrides} in
   * exactly the line {@code afterFileName} follows the file's name with (":2: field ...").
   *
   * @throws AssertionError otherwise
   */
  public static void assertRefused(
      Supplier<? extends BenchmarkDriver> newDriver,
      Path dir,
      String yaml,
      Map<String, String> overrides,
      String afterFileName)
      throws Exception {
    Path file = write(dir, yaml);
    String refusal = messageOf(newDriver, file, overrides);
    if (!refusal.equals(file + afterFileName)) {
      throw new AssertionError("refused with\n  " + refusal + "\nnot\n  " + file + afterFileName);
    }
  }

  /**
   * {@link #assertMisspelledField(Supplier, Path, int, String, String)} for the driver file {@code
   * yaml}, written to {@code dir}.
   */
  public static void assertMisspelledField(
      Supplier<? extends BenchmarkDriver> newDriver,
      Path dir,
      String yaml,
      int line,
      String typo,
      String meant)
      throws Exception {
    assertMisspelledField(newDriver, write(dir, yaml), line, typo, meant);
  }

  private static Path write(Path dir, String yaml) throws IOException {
    return Files.writeString(Files.createTempFile(dir, "driver", ".yaml"), yaml);
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
