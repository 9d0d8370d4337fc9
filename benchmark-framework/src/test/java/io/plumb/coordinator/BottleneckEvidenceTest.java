package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.bottleneck.BottleneckVerdict;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bottleneck verdict on real runs whose cause the test itself sets up: producer threads starved
 * of CPU are the generator's limit, a send() that blocks is the broker's.
 */
@Tag("host-timing")
class BottleneckEvidenceTest {
  @TempDir Path dir;

  @Test
  void producerThreadsStarvedOfCpuAreGeneratorBound() throws Exception {
    // The benchmark JVM and a busy loop share core 0: the producer thread, which never waits at
    // this rate, gets about half the core it asks for.
    Process competitor =
        new ProcessBuilder("taskset", "-c", "0", "sh", "-c", "while :; do :; done")
            .redirectErrorStream(true)
            .start();
    List<String> lines = new ArrayList<>();
    try {
      Process run =
          new ProcessBuilder(
                  "taskset",
                  "-c",
                  "0",
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-cp",
                  System.getProperty("java.class.path"),
                  StarvedGeneratorRun.class.getName())
              .redirectErrorStream(true)
              .start();
      try (BufferedReader out =
          new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          lines.add(line);
        }
      }
      assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the run did not end");
      assertEquals(0, run.exitValue(), String.join("\n", lines));
    } finally {
      competitor.destroy();
      competitor.waitFor(10, TimeUnit.SECONDS);
    }
    String kind = value(lines, "KIND ");
    String reason = value(lines, "REASON ");
    System.out.println("starved: " + reason);
    assertEquals(BottleneckVerdict.Kind.GENERATOR_BOUND.name(), kind, reason);
    assertTrue(reason.contains("generator-bound: producer threads got"), reason);
    int got = Integer.parseInt(reason.replaceAll("(?s).*threads got (\\d+)% of the CPU.*", "$1"));
    // A thread sharing one core with a busy loop gets about half of it; 80% would be a core of
    // its own in all but name.
    assertTrue(got < 80, reason);
  }

  @Test
  void aSendThatBlocksIsTheBrokerPushingBack() throws Exception {
    // 1,000 msg/s against a send() that blocks 50 ms: at most 20 msg/s, asleep inside send().
    Path workload = dir.resolve("workload.yaml");
    WorkloadYaml.oneTopic().rate(1000).seconds(3).writeTo(workload);
    Path driver = dir.resolve("blocking.yaml");
    Files.writeString(
        driver, "name: Blocking\ndriverClass: " + BlockingSendDriver.class.getName() + "\n");
    RunReport report =
        new BenchmarkRun(
                WorkloadReader.read(workload),
                driver,
                new LocalWorker(),
                RunOptions.defaults().withPeriod(Duration.ofSeconds(1)),
                RunListener.SILENT)
            .execute();
    BottleneckVerdict verdict = report.bottleneck();
    System.out.println("blocking send(): " + verdict.reason());
    assertEquals(BottleneckVerdict.Kind.BROKER_PUSHBACK, verdict.kind(), verdict.reason());
    assertTrue(verdict.reason().contains("pushed back by the broker: "), verdict.reason());
    assertTrue(verdict.reason().contains("producer threads got"), verdict.reason());
    // Asleep in send() most of the time, whatever else runs on this host.
    assertTrue(verdict.figures().get("producerThreadBlockedInSendPercent") > 50, verdict.reason());
    assertTrue(report.generatorBoundReasons().isEmpty(), verdict.reason());
  }

  private static String value(List<String> lines, String prefix) {
    return lines.stream()
        .filter(line -> line.startsWith(prefix))
        .map(line -> line.substring(prefix.length()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + prefix + "in " + String.join("\n", lines)));
  }
}
