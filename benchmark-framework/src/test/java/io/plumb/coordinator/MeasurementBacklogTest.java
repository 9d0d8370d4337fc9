package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.stats.PeriodCounts;
import io.plumb.stats.PeriodStats;
import org.junit.jupiter.api.Test;

/** The backlog timeline counts what a consumer can still receive, not failed publishes. */
class MeasurementBacklogTest {

  @Test
  void failedPublishesAreNoBacklogOnceEverythingAcknowledgedWasReceived() {
    Measurement measurement = new Measurement(1);
    // A fault: 1,000 sent, 300 failed, every acknowledged one received.
    assertEquals(0, measurement.add(Phase.MEASURE, period(1_000, 700, 300, 700, 0), 1.0));
    // And after it: nothing is left waiting, whatever failed before.
    assertEquals(0, measurement.add(Phase.MEASURE, period(1_000, 1_000, 0, 1_000, 0), 1.0));
    assertEquals(0, measurement.samples().get(1).backlog());
  }

  @Test
  void pendingAndAcknowledgedButUnreceivedMessagesAreBacklogForEverySubscription() {
    Measurement measurement = new Measurement(2);
    // 1,000 sent: 600 acknowledged, 100 failed, 300 awaiting; two subscriptions received 500
    // each, plus 50 duplicates that shrink nothing.
    long backlog = measurement.add(Phase.MEASURE, period(1_000, 600, 100, 1_050, 50), 1.0);
    assertEquals((1_000 - 100) * 2 - 1_000, backlog);
  }

  private static PeriodStats period(
      long sent, long acknowledged, long failed, long received, long duplicates) {
    return new PeriodCounts(sent, acknowledged, failed, received, duplicates).withoutLatencies();
  }
}
