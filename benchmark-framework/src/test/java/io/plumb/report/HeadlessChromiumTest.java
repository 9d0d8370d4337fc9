package io.plumb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** The browser tests fail, never skip, where Chromium is missing, and say how to install it. */
class HeadlessChromiumTest {
  @TempDir Path dir;

  @Test
  void aMissingChromiumFailsWithTheLineThatInstallsIt() {
    AssertionFailedError failure =
        assertThrows(AssertionFailedError.class, () -> HeadlessChromium.binary(dir.toString()));
    assertTrue(failure.getMessage().contains("apt-get install -y chromium"), failure.getMessage());
  }

  @Test
  void findsChromiumOnTheSearchPath() throws Exception {
    Path chromium = Files.createFile(dir.resolve("chromium"));
    assertTrue(chromium.toFile().setExecutable(true));
    assertEquals(chromium, HeadlessChromium.binary("/nonexistent:" + dir));
  }
}
