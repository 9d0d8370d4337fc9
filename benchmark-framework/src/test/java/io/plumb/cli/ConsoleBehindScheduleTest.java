package io.plumb.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.coordinator.PeriodProgress;
import io.plumb.coordinator.Phase;
import io.plumb.stats.PeriodStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress line's "BEHIND schedule": said whenever producers owe messages to the schedule. */
class ConsoleBehindScheduleTest {
  private static String line(PeriodStats stats, long lag) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    new ConsoleReporter(out, 100)
        .period(new PeriodProgress(Phase.MEASURE, 12, 60, stats, 1.0, 0, lag));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aPeriodWithSomeSendsAndALagSaysBehind() {
    PeriodStats some = new PeriodStats.Builder().addSent(500, 50_000, 0).build();
    assertTrue(line(some, 1_500).contains("BEHIND schedule by 1,500 msgs"), line(some, 1_500));
  }

  @Test
  void aPeriodInWhichTheProducersSentNothingAtAllSaysBehindToo() {
    // Producers stuck in send() for the whole second: the worst lag there is, not none.
    PeriodStats none = new PeriodStats.Builder().build();
    String line = line(none, 2_000);
    assertTrue(line.contains("pub         0 msg/s"), line);
    assertTrue(line.contains("BEHIND schedule by 2,000 msgs"), line);
  }
}
