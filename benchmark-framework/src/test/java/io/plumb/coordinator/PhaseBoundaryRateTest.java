package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.PeriodSample;
import io.plumb.result.RunReport;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The measured phase's rates divide the messages of its periods by the time those periods cover.
 * The first measured period holds everything since the warm-up's last period was taken, so its
 * length must run from there: whatever the run does between the two phases (the listeners' work at
 * the warm-up's end, announcing the phase) is time in which the open-loop schedule keeps sending.
 */
@Tag("host-timing")
class PhaseBoundaryRateTest {
  private static final int RATE = 2_000;

  @TempDir Path dir;

  @Test
  void timeBetweenWarmUpAndMeasurementCountsTowardTheFirstMeasuredPeriod() throws Exception {
    // A listener that takes its time over the warm-up's last period, as a sampler of remote
    // workers' resources or a slow terminal may.
    RunListener slowAtWarmUpEnd =
        new EachPeriod(
            (phase, stats, seconds) -> {
              if (phase == Phase.WARM_UP) {
                sleep(Duration.ofMillis(400));
              }
            });
    RunReport report =
        LoopbackRuns.prepare(
                dir,
                WorkloadYaml.oneTopic().rate(RATE).warmup(1).seconds(2).text(),
                "",
                RunOptions.defaults().withPeriod(Duration.ofSeconds(1)),
                slowAtWarmUpEnd)
            .execute();

    assertTrue(report.complete(), report.incompleteReason());
    PeriodSample first = report.samples().get(0);
    double firstRate = first.counts().sent() / first.seconds();
    assertEquals(RATE, firstRate, RATE * 0.05, "first measured period's publish rate");
    assertEquals(RATE, report.publishRate(), RATE * 0.05, "measured publish rate");
    assertEquals(RATE, report.consumeRate(), RATE * 0.05, "measured consume rate");
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
