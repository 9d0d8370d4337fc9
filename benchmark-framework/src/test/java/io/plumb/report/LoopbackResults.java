package io.plumb.report;

import io.plumb.coordinator.LoopbackRuns;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.ResultJson;
import io.plumb.result.ResultWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** Real results for the report's tests: one-second runs on the loopback driver, written as JSON. */
public final class LoopbackResults {
  private LoopbackResults() {}

  /** Runs {@code rate} msg/s of {@code size}-byte messages for one second; returns the result. */
  public static Path write(Path dir, String name, int rate, int size) throws IOException {
    String workload =
        """
        name: %s
        topics: 1
        partitionsPerTopic: 2
        messageSize: %d
        subscriptionsPerTopic: 1
        consumerPerSubscription: 1
        producersPerTopic: 1
        producerRate: %d
        testDurationSeconds: 1
        warmupDurationSeconds: 0
        """
            .formatted(name, size, rate);
    // Quarter-second periods: four points per timeline from a one-second run.
    RunOptions options = RunOptions.defaults().withPeriod(Duration.ofMillis(250));
    var report = LoopbackRuns.prepare(dir, workload, "", options).execute();
    Path result = dir.resolve(name + ".json");
    ResultWriter.write(ResultJson.render(report), result);
    return result;
  }
}
