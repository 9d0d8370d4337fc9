package io.plumb.testkit;

import io.plumb.driver.BenchmarkDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * What every driver's tests check of the driver files it refuses: a misspelled field, and each
 * value out of range, refused at {@code initialize} before any run, in one line that names the
 * file, the line and the field. A driver's test implements it with {@link #newDriver}; the files
 * are data, in {@value #REFUSED_FILES} of the driver's module, each with the refusal it expects in
 * its first line:
 *
 * <pre>
 * # refused: :3: field 'appendfsync': 'sometimes' is not one of always, everysec, no
 * mode: streams
 * appendonly: yes
 * appendfsync: sometimes
 * </pre>
 *
 * or {@code # misspelled: redisPrt for redisPort} for a file whose field {@code redisPrt} must be
 * refused as unknown, suggesting {@code redisPort}. A new case is a new file.
 */
public interface DriverFileRefusalContract {

  /** Where a driver module keeps the files it must refuse, from the module's directory. */
  String REFUSED_FILES = "src/test/resources/refused";

  /** A new driver, not initialised. */
  BenchmarkDriver newDriver();

  /** The directory of the files; a module with two drivers gives the second its own. */
  default Path refusedFiles() {
    return Path.of(REFUSED_FILES);
  }

  /** {@code --driver-set} values every file is read with (the local broker's port, say). */
  default Map<String, String> overrides() {
    return Map.of();
  }

  /**
   * The one line a {@link #newDriver() new driver} refuses {@code file} with, read with {@code
   * overrides}: for a case that needs a file written by the test, or a value only the command line
   * can give.
   *
   * @throws AssertionError when the driver accepts it
   */
  default String refusalOf(Path file, Map<String, String> overrides) throws Exception {
    return ConfigRefusal.messageOf(this::newDriver, file, overrides);
  }

  @TestFactory
  default Stream<DynamicTest> everyRefusedFileIsRefusedInItsOneLine() throws Exception {
    List<RefusedDriverFile> files = RefusedDriverFile.in(refusedFiles());
    if (files.stream().noneMatch(RefusedDriverFile::isMisspelling)
        || files.stream().allMatch(RefusedDriverFile::isMisspelling)) {
      throw new AssertionError(
          refusedFiles()
              + " needs a driver file with a misspelled field ('"
              + RefusedDriverFile.MISSPELLED
              + "TYPO for FIELD') and one with a bad value ('"
              + RefusedDriverFile.REFUSED
              + ":LINE: field ...'); it has "
              + files.size());
    }
    return files.stream()
        .map(
            f ->
                DynamicTest.dynamicTest(
                    f.file().getFileName().toString(),
                    () -> f.assertRefusedBy(this::newDriver, overrides())));
  }
}
