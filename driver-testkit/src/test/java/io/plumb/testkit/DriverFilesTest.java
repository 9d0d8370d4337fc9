package io.plumb.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.loopback.LoopbackDriver;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DriverFilesTest {
  private static final Path LOOPBACK = Path.of("../benchmark-framework/loopback.yaml");

  @Test
  void theLoopbackFileLoadsTheLoopbackDriver() {
    DriverFiles.assertLoadsAs(LOOPBACK, "Loopback", LoopbackDriver.class);
  }

  @Test
  void anotherNameOrClassFails() {
    AssertionError name =
        assertThrows(
            AssertionError.class,
            () -> DriverFiles.assertLoadsAs(LOOPBACK, "Kafka", LoopbackDriver.class));
    assertEquals(LOOPBACK + " is named 'Loopback', not 'Kafka'", name.getMessage());
    assertThrows(
        AssertionError.class,
        () -> DriverFiles.assertLoadsAs(LOOPBACK, "Loopback", NotLoopback.class));
  }

  /** A driver type the loopback file does not load. */
  private abstract static class NotLoopback implements BenchmarkDriver {}
}
