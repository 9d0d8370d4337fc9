package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.worker.LoopbackDriverFile;
import io.plumb.workload.Workload;
import io.plumb.workload.WorkloadReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every workload file the project ships reads without error and runs once against the loopback
 * driver, shortened: one second measured, no warm-up, the rate capped at 100,000 msg/s (a max-rate
 * file runs at that cap instead of searching) and a backlog of 5 MB, so a broken file fails here
 * rather than in a user's first run.
 */
class ShippedWorkloadsTest {
  private static final Path WORKLOADS = Path.of("..", "workloads");
  private static final Path PAYLOADS = Path.of("..", "payload").toAbsolutePath().normalize();

  @TempDir Path dir;

  static Stream<Path> shipped() throws IOException {
    try (Stream<Path> files = Files.list(WORKLOADS)) {
      List<Path> yaml = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
      assertTrue(yaml.size() >= 20, "workload files found: " + yaml);
      return yaml.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("shipped")
  void runsOnceAgainstTheLoopbackDriver(Path file) throws IOException {
    Workload asShipped = WorkloadReader.read(file);
    assertTrue(asShipped.name() != null && !asShipped.name().isBlank(), file + " has no name");

    Path shortened = dir.resolve(file.getFileName());
    Files.writeString(shortened, shorten(Files.readString(file), asShipped));
    Path driver = LoopbackDriverFile.write(dir);
    RunReport report =
        new BenchmarkRun(
                WorkloadReader.read(shortened),
                driver,
                new LocalWorker(),
                RunOptions.defaults(),
                RunListener.SILENT)
            .execute();
    assertTrue(report.complete(), file + ": " + report.incompleteReason());
    assertEquals(0, report.counters().lost(), file + ": lost messages");
    assertEquals(report.counters().sent(), report.counters().acknowledged(), file.toString());
  }

  /** The same workload, one second long, at most 100k msg/s, payloads found from anywhere. */
  private String shorten(String yaml, Workload workload) {
    double rate = workload.producerRate();
    String capped = rate == 0 || rate > 100_000 ? "100000" : String.valueOf((long) rate);
    StringBuilder out = new StringBuilder();
    for (String line : yaml.split("\n")) {
      String key = line.contains(":") ? line.substring(0, line.indexOf(':')).strip() : "";
      switch (key) {
        case "testDurationMinutes",
            "testDurationSeconds",
            "warmupDurationMinutes",
            "warmupDurationSeconds" -> {}
        case "producerRate" -> out.append("producerRate: ").append(capped).append('\n');
        case "consumerBacklogSizeGB" ->
            out.append(
                workload.consumerBacklogSizeGB() > 0 ? "consumerBacklogSizeGB: 0.005\n" : "");
        case "payloadFile" ->
            out.append("payloadFile: \"")
                .append(PAYLOADS.resolve(Path.of(valueOf(line)).getFileName()))
                .append("\"\n");
        default -> out.append(line).append('\n');
      }
    }
    return out + "testDurationSeconds: 1\nwarmupDurationSeconds: 0\n";
  }

  private static String valueOf(String line) {
    return line.substring(line.indexOf(':') + 1).strip().replace("\"", "");
  }
}
