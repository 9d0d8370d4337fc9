package io.plumb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.input.BadInputException;
import io.plumb.loopback.LoopbackDriver;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A remote worker gets only the driver file's text: the driver's settings must be built from it,
 * and mistakes named after the file the user wrote, not a local copy.
 */
class LocalWorkerDriverSetupTest {
  private static final String ABSENT = "/no/such/dir/loopback.yaml";

  @Test
  void driverIsInitialisedFromTheTextAlone() {
    String yaml =
        "name: Loopback\ndriverClass: " + LoopbackDriver.class.getName() + "\nstallMillis: 0\n";
    LocalWorker worker = new LocalWorker(1);
    try {
      DriverInfo info = worker.initializeDriver(new DriverSetup(ABSENT, yaml, Map.of()), 1);
      assertEquals(LoopbackDriver.class.getName(), info.driverClass());
    } finally {
      worker.close();
    }
  }

  @Test
  void misspelledFieldInTheTextNamesTheUsersFileAndLine() {
    String yaml =
        "name: Loopback\ndriverClass: " + LoopbackDriver.class.getName() + "\nstallMilis: 5\n";
    LocalWorker worker = new LocalWorker(1);
    try {
      BadInputException e =
          assertThrows(
              BadInputException.class,
              () -> worker.initializeDriver(new DriverSetup(ABSENT, yaml, Map.of()), 1));
      assertEquals(
          ABSENT
              + ":3: unknown field 'stallMilis' (did you mean 'stallMillis'?); allowed:"
              + " driverClass, dropAfterMessages, droppedMessages, headerMetadata, hiddenMessages,"
              + " hideAfterMessages, keepMessages, name, stallAfterMessages, stallMillis",
          e.getMessage());
      BadInputException override =
          assertThrows(
              BadInputException.class,
              () ->
                  worker.initializeDriver(
                      new DriverSetup(
                          ABSENT, yaml.replace("stallMilis", "stallMillis"), Map.of("stall", "1")),
                      1));
      assertEquals(
          "--driver-set stall=1: unknown field 'stall'; allowed: driverClass,"
              + " dropAfterMessages, droppedMessages, headerMetadata, hiddenMessages,"
              + " hideAfterMessages, keepMessages, name, stallAfterMessages, stallMillis",
          override.getMessage());
    } finally {
      worker.close();
    }
  }

  @Test
  void aNegativeMessageCountIsRefusedNamingTheField() {
    String yaml =
        "name: Loopback\ndriverClass: "
            + LoopbackDriver.class.getName()
            + "\nkeepMessages: true\nhiddenMessages: -1\n";
    LocalWorker worker = new LocalWorker(1);
    try {
      BadInputException e =
          assertThrows(
              BadInputException.class,
              () -> worker.initializeDriver(new DriverSetup(ABSENT, yaml, Map.of()), 1));
      assertTrue(e.getMessage().contains("hiddenMessages"), e.getMessage());
      assertTrue(e.getMessage().contains("expected 0 or more, got -1"), e.getMessage());
    } finally {
      worker.close();
    }
  }
}
