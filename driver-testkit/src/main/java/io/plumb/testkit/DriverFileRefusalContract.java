package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every driver's tests check of the driver files it refuses: a misspelled field, and each
 * value out of range, refused at {@code initialize} before any run, in one line that names the
 * file, the line and the field. A driver's test implements it: a new driver, one file with a
 * misspelling, the files with bad values and their refusals.
 */
public interface DriverFileRefusalContract {

  /**
   * A driver file with one misspelled field: {@code typo} on {@code line}, meant as {@code meant}.
   */
  record Misspelling(String yaml, int line, String typo, String meant) {}

  /**
   * A driver file refused for a value.
   *
   * @param overrides the {@code --driver-set} settings it is read with
   * @param refusal the line after the file's name, {@code ":2: field 'x': ..."}
   */
  record BadValue(String yaml, Map<String, String> overrides, String refusal) {
    public BadValue(String yaml, String refusal) {
      this(yaml, Map.of(), refusal);
    }
  }

  /** A new driver, not initialised. */
  BenchmarkDriver newDriver();

  Misspelling misspelling();

  List<BadValue> badValues();

  @Test
  default void misspelledFieldIsRejectedWithFileLineAndField(@TempDir Path dir) throws Exception {
    Misspelling m = misspelling();
    ConfigRefusal.assertMisspelledField(
        this::newDriver, dir, m.yaml(), m.line(), m.typo(), m.meant());
  }

  @TestFactory
  default Stream<DynamicTest> badValuesAreRejectedWithFileLineAndField(@TempDir Path dir) {
    return badValues().stream()
        .map(
            bad ->
                DynamicTest.dynamicTest(
                    bad.refusal(),
                    () ->
                        ConfigRefusal.assertRefused(
                            this::newDriver, dir, bad.yaml(), bad.overrides(), bad.refusal())));
  }
}
