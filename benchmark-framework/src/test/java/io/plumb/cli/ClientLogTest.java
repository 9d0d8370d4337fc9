package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientLogTest {
  @TempDir Path dir;

  @Test
  void clientLogsGoBesideTheResultsUnlessADestinationWasGiven() {
    String before = System.clearProperty(ClientLog.PROPERTY);
    try {
      Path results = dir.resolve("out");
      assertEquals(Optional.of(results.resolve("clients.log")), ClientLog.sendBeside(results));
      assertEquals(
          results.resolve("clients.log").toString(), System.getProperty(ClientLog.PROPERTY));
      assertEquals(true, Files.isDirectory(results));

      System.clearProperty(ClientLog.PROPERTY);
      Path file = dir.resolve("one/run.json");
      assertEquals(
          Optional.of(file.getParent().resolve("clients.log")), ClientLog.sendBeside(file));

      Path chosen = dir.resolve("chosen.log");
      System.setProperty(ClientLog.PROPERTY, chosen.toString());
      assertEquals(Optional.of(chosen), ClientLog.sendBeside(results));

      System.setProperty(ClientLog.PROPERTY, "System.err");
      assertEquals(Optional.empty(), ClientLog.sendBeside(results));
      assertEquals("System.err", System.getProperty(ClientLog.PROPERTY));
    } finally {
      if (before == null) {
        System.clearProperty(ClientLog.PROPERTY);
      } else {
        System.setProperty(ClientLog.PROPERTY, before);
      }
    }
  }
}
