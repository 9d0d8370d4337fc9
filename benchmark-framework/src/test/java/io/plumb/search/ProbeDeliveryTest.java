package io.plumb.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.LoopbackRuns;
import io.plumb.coordinator.RunOptions;
import io.plumb.result.RunReport;
import io.plumb.workload.WorkloadYaml;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A probe's run whose broker acknowledged messages it never delivered fails, whatever its rates:
 * the loopback topic here drops 123 messages after acknowledging them, at a rate it otherwise holds
 * with ease, and the search must not call that rate sustained.
 */
class ProbeDeliveryTest {
  @TempDir Path dir;

  @Test
  void acknowledgedMessagesThatNeverArrivedFailTheProbe() throws Exception {
    RunReport report =
        LoopbackRuns.prepare(
                dir,
                WorkloadYaml.oneTopic().messageSize(128).rate(2000).seconds(1).warmup(0).text(),
                // Dropped within the first 70 ms, before the first period ends: every period sees
                // the same 123 missing, a backlog that does not grow (a drop later in the run is a
                // step that the backlog's trend may call consumers behind, also a failure).
                "dropAfterMessages: 1\ndroppedMessages: 123\n",
                // A 1 s probe's periods, as RunProber cuts them.
                RunOptions.defaults()
                    .withPeriod(Duration.ofMillis(250))
                    .withDrainTimeout(Duration.ofSeconds(2)))
            .execute();
    assertTrue(report.complete(), report.incompleteReason());

    ProbeOutcome probe = RunProber.outcome(2000, report, 0, 3, Optional.empty());
    assertEquals(123, probe.undelivered(), report.counters().toString());
    StepVerdict verdict = new StepJudge(Optional.empty()).judge(probe);
    assertEquals(StepVerdict.Kind.UNDELIVERED, verdict.kind(), verdict.reason());
    assertTrue(verdict.reason().startsWith("123 acknowledged message(s)"), verdict.reason());
  }
}
