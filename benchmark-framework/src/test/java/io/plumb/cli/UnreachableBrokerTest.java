package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.remote.LoopbackWorkerServers;
import io.plumb.remote.WorkerServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A driver whose broker does not answer ends the command the same way whether the worker is in this
 * process or on another host: one line naming the file, the address and the way out, exit status 3,
 * and no empty result.
 */
class UnreachableBrokerTest {
  private static final String TOKEN = "unreachable-broker-token-0123456789";

  @TempDir Path dir;

  @Test
  void inProcessWorker() throws Exception {
    CommandLineRun run = CommandLineRun.tinyRun(dir, driverFile().toString());
    assertOneLineAndNoResult(run);
  }

  @Test
  void remoteWorker() throws Exception {
    try (WorkerServer worker =
        LoopbackWorkerServers.create(Optional.of(TOKEN), Duration.ofSeconds(30))) {
      worker.start();
      Path token = Files.writeString(dir.resolve("token"), TOKEN);
      Path workload = CommandLineRun.writeTinyWorkload(dir);
      CommandLineRun run =
          CommandLineRun.run(
              "-d",
              driverFile().toString(),
              "-o",
              dir.toString(),
              "--workers",
              "http://127.0.0.1:" + worker.port(),
              "--token-file",
              token.toString(),
              workload.toString());
      assertOneLineAndNoResult(run);
    }
  }

  private Path driverFile() throws Exception {
    return Files.writeString(
        dir.resolve("nothing.yaml"),
        "name: Nothing\ndriverClass: " + UnreachableDriver.class.getName() + "\n");
  }

  private void assertOneLineAndNoResult(CommandLineRun run) throws Exception {
    assertEquals(
        List.of(),
        run.unreachableBrokerProblems(
            dir.resolve("nothing.yaml").toString(),
            UnreachableDriver.ADDRESS + " is unreachable (Connection refused)",
            "deploy/local/nothing.sh start"));
    // Where the clients log: beside these results, or where an earlier test of this JVM chose.
    assertTrue(run.err().trim().matches(".* \\(client log: [^ ]+clients\\.log\\)"), run.err());
    try (Stream<Path> files = Files.list(dir)) {
      assertFalse(files.anyMatch(f -> f.toString().endsWith(".json")), "a result was written");
    }
  }
}
