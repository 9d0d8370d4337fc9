package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.plumb.input.BadInputException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerEndpointsTest {
  @TempDir Path dir;

  @Test
  void readsOpenMessagingBenchmarksWorkersFileAsIs() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("workers.yaml"),
            "workers:\n  - http://10.0.0.1:8080\n  - https://10.0.0.2:8443/\n");
    assertEquals(
        List.of(URI.create("http://10.0.0.1:8080/"), URI.create("https://10.0.0.2:8443/")),
        WorkerEndpoints.fromFile(file));
  }

  @Test
  void aMisspelledFieldIsNamedWithItsLine() throws Exception {
    Path file = Files.writeString(dir.resolve("w.yaml"), "\nworker:\n  - http://h:8080\n");
    BadInputException error =
        assertThrows(BadInputException.class, () -> WorkerEndpoints.fromFile(file));
    assertEquals(
        file + ":2: unknown field 'worker' (did you mean 'workers'?); allowed: workers",
        error.getMessage());
  }

  @Test
  void rejectsWhatIsNotAWorkerUrl() {
    assertEquals(
        "--workers: 'h1:8080' is not a URL such as http://host:8080 or https://host:8443",
        assertThrows(
                BadInputException.class,
                () -> WorkerEndpoints.parse(List.of("h1:8080"), "--workers"))
            .getMessage());
    assertThrows(
        BadInputException.class,
        () -> WorkerEndpoints.parse(List.of("http://a:1", "http://a:1/"), "--workers"));
  }
}
