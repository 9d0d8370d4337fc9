package io.plumb.coordinator;

import io.plumb.result.RunReport;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A loopback run at a rate no generator keeps, for a test to start in a JVM of its own pinned to
 * one core beside a busy competitor; prints the bottleneck verdict's kind and reason.
 */
public final class StarvedGeneratorRun {
  private StarvedGeneratorRun() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("plumb-starved");
    RunReport report =
        LoopbackRuns.run(
            dir, WorkloadYaml.oneTopic().rate(5000000).seconds(4).warmup(1).text(), "");
    System.out.println("KIND " + report.bottleneck().kind());
    System.out.println("REASON " + report.bottleneck().reason());
  }
}
