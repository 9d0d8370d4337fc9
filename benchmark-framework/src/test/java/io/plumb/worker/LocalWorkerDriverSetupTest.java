package io.plumb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.DriverConfig;
import io.plumb.input.BadInputException;
import io.plumb.loopback.LoopbackDriver;
import io.plumb.worker.WorkerSpecs.DriverInfo;
import io.plumb.worker.WorkerSpecs.DriverSetup;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A remote worker gets only the driver file's text: the driver's settings must be built from it,
 * and mistakes named after the file the user wrote, not a local copy.
 */
class LocalWorkerDriverSetupTest {
  private static final String ABSENT = "/no/such/dir/loopback.yaml";

  @Test
  void driverIsInitialisedFromTheTextAlone() {
    try (LocalWorker worker = new LocalWorker(1)) {
      DriverInfo info = initialize(worker, "stallMillis: 0\n", Map.of());
      assertEquals(LoopbackDriver.class.getName(), info.driverClass());
    }
  }

  @Test
  void misspelledFieldInTheTextNamesTheUsersFileAndLine() {
    try (LocalWorker worker = new LocalWorker(1)) {
      BadInputException e = refused(worker, "stallMilis: 5\n", Map.of());
      assertEquals(
          ABSENT
              + ":3: unknown field 'stallMilis' (did you mean 'stallMillis'?); allowed:"
              + " driverClass, dropAfterMessages, droppedMessages, headerMetadata, heldPartition,"
              + " hiddenMessages, hideAfterMessages, holdAfterMessages, keepMessages, name,"
              + " stallAfterMessages, stallMillis",
          e.getMessage());
      BadInputException override = refused(worker, "stallMillis: 5\n", Map.of("stall", "1"));
      // name and driverClass are the file's alone: --driver-set refuses them, so they are not
      // offered here.
      assertEquals(
          "--driver-set stall=1: unknown field 'stall'; allowed: dropAfterMessages,"
              + " droppedMessages, headerMetadata, heldPartition, hiddenMessages, hideAfterMessages,"
              + " holdAfterMessages, keepMessages, stallAfterMessages, stallMillis",
          override.getMessage());
    }
  }

  @Test
  void aNegativeMessageCountIsRefusedNamingTheField() {
    try (LocalWorker worker = new LocalWorker(1)) {
      BadInputException e = refused(worker, "keepMessages: true\nhiddenMessages: -1\n", Map.of());
      assertTrue(e.getMessage().contains("hiddenMessages"), e.getMessage());
      assertTrue(e.getMessage().contains("expected 0 or more, got -1"), e.getMessage());
    }
  }

  @Test
  void theDriverReadsTheWorkersEnvironmentFromItsConfig() {
    AtomicReference<DriverConfig> given = new AtomicReference<>();
    BenchmarkDriver capturing =
        (BenchmarkDriver)
            Proxy.newProxyInstance(
                BenchmarkDriver.class.getClassLoader(),
                new Class<?>[] {BenchmarkDriver.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("initialize")) {
                    given.set((DriverConfig) args[0]);
                  }
                  return null;
                });
    DriverStartup.of(new DriverSetup(ABSENT, LoopbackDriverFile.TEXT, Map.of()))
        .initialize(capturing);
    assertEquals(System.getenv(), given.get().environment());
  }

  /**
   * Sets the loopback driver up from the text of a file the worker cannot read, {@code settings}
   * after its class, as a remote worker gets it.
   */
  private static DriverInfo initialize(
      LocalWorker worker, String settings, Map<String, String> overrides) {
    return worker.initializeDriver(
        new DriverSetup(ABSENT, LoopbackDriverFile.TEXT + settings, overrides), 1);
  }

  private static BadInputException refused(
      LocalWorker worker, String settings, Map<String, String> overrides) {
    return assertThrows(BadInputException.class, () -> initialize(worker, settings, overrides));
  }
}
