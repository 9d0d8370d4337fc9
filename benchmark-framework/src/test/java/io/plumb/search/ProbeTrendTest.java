package io.plumb.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.BenchmarkRun;
import io.plumb.coordinator.RunListener;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.RunReport;
import io.plumb.worker.LocalWorker;
import io.plumb.workload.WorkloadReader;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trends a probe is judged by start where its measured phase starts: a run measured in one
 * period (a 1 s measurement after a search, a sweep step as long as its period) still has a trend,
 * and a broker that acknowledges a quarter of the rate does not pass for want of a second point.
 */
class ProbeTrendTest {
  @TempDir Path dir;

  @Test
  void aRunMeasuredInOnePeriodStillShowsItsBacklogGrowing() throws Exception {
    Path workload =
        WorkloadYaml.oneTopic().rate(4000).seconds(1).warmup(0).writeTo(dir.resolve("w.yaml"));
    Path driver = dir.resolve("capacity.yaml");
    Files.writeString(
        driver, "name: Capacity\ndriverClass: io.plumb.search.CapacityDriver\ncapacity: 2000\n");
    RunReport report =
        new BenchmarkRun(
                WorkloadReader.read(workload),
                driver,
                new LocalWorker(),
                RunOptions.defaults()
                    .withPeriod(Duration.ofSeconds(1))
                    .withDrainTimeout(Duration.ofSeconds(2)),
                RunListener.SILENT)
            .execute();
    assertTrue(report.complete(), report.incompleteReason());
    assertEquals(1, report.samples().size());

    ProbeOutcome probe = RunProber.outcome(4000, report, 0, 4, Optional.empty());
    // About 2,000 a second: 4,000 sent, 2,000 acknowledged and received.
    assertTrue(probe.unacknowledgedSlope() > 1000, "unacknowledged " + probe);
    assertTrue(probe.backlogSlope() > 1000, "backlog " + probe);
    StepVerdict verdict = new StepJudge(Optional.empty()).judge(probe);
    assertEquals(StepVerdict.Kind.ACKNOWLEDGEMENTS_BEHIND, verdict.kind(), verdict.reason());
  }
}
