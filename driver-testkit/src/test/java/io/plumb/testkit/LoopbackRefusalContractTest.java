package io.plumb.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.loopback.LoopbackDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The refusal contract on the loopback driver, which needs no broker: its files in this module's
 * {@code src/test/resources/refused}, and what the contract says of files it cannot use.
 */
class LoopbackRefusalContractTest implements DriverFileRefusalContract {

  @Override
  public BenchmarkDriver newDriver() {
    return new LoopbackDriver();
  }

  @Test
  void aFileWithoutItsExpectedRefusalIsNamedWithWhatItsFirstLineMustSay(@TempDir Path dir)
      throws Exception {
    Path file = Files.writeString(dir.resolve("bad.yaml"), "hiddenMessages: -1\n");
    AssertionError e = assertThrows(AssertionError.class, () -> RefusedDriverFile.in(dir));
    assertEquals(
        file
            + ":1: starts with neither '# refused: :LINE: field ...' nor '# misspelled: TYPO for"
            + " FIELD'",
        e.getMessage());
  }

  @Test
  void aDirectoryWithoutBothKindsOfFileIsNotEnough(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("typo.yaml"), "# misspelled: stallMilis for stallMillis\n");
    DriverFileRefusalContract onlyATypo =
        new DriverFileRefusalContract() {
          @Override
          public BenchmarkDriver newDriver() {
            return new LoopbackDriver();
          }

          @Override
          public Path refusedFiles() {
            return dir;
          }
        };
    AssertionError e =
        assertThrows(AssertionError.class, onlyATypo::everyRefusedFileIsRefusedInItsOneLine);
    assertTrue(e.getMessage().startsWith(dir + " needs a driver file with a misspelled field"));
  }
}
