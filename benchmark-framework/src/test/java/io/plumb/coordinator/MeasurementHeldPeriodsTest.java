package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.PeriodSample;
import io.plumb.stats.Histograms;
import io.plumb.stats.PeriodCounts;
import io.plumb.stats.PeriodStats;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The periods runs keep hold their figures up to one budget, the oldest let go first. */
class MeasurementHeldPeriodsTest {

  @Test
  void periodsBeyondTheBudgetAreReleasedOldestFirstAndReadTheSame() {
    long onePeriod = period(0).publishLatency().getEstimatedFootprintInBytes() * 4;
    HeldPeriods budget = new HeldPeriods(3 * onePeriod);
    Measurement measurement = new Measurement(1, budget);
    List<PeriodStats> added = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      PeriodStats stats = period(i);
      added.add(stats);
      measurement.add(Phase.MEASURE, stats, 1.0);
    }

    List<PeriodSample> samples = measurement.samples();
    long held = 0;
    for (int i = 0; i < samples.size(); i++) {
      PeriodSample sample = samples.get(i);
      held += sample.heldBytes();
      PeriodStats read = sample.stats();
      if (i < 7) {
        assertEquals(0, sample.heldBytes(), "period " + i + " still held");
        assertNotSame(added.get(i), read);
      } else {
        assertSame(added.get(i), read, "period " + i + " released");
      }
      assertEquals(added.get(i).sent(), read.sent());
      assertEquals(added.get(i).publishLatency(), read.publishLatency());
      assertEquals(added.get(i).endToEndLatency(), read.endToEndLatency());
    }
    assertTrue(held <= 3 * onePeriod, "held " + held);
    assertEquals(held, budget.heldBytes());
    assertEquals(10 * 1_000, measurement.measuredSent());
  }

  @Test
  void theLatestPeriodIsHeldWhateverTheBudget() {
    Measurement measurement = new Measurement(1, new HeldPeriods(0));
    measurement.add(Phase.MEASURE, period(1), 1.0);
    PeriodStats latest = period(2);
    measurement.add(Phase.MEASURE, latest, 1.0);

    assertSame(latest, measurement.samples().get(1).stats());
    assertEquals(0, measurement.samples().get(0).heldBytes());
  }

  @Test
  void aLaterRunReleasesAnEarlierRunsPeriodsFirst() {
    long onePeriod = period(0).publishLatency().getEstimatedFootprintInBytes() * 4;
    HeldPeriods budget = new HeldPeriods(2 * onePeriod);
    Measurement first = new Measurement(1, budget);
    first.add(Phase.MEASURE, period(1), 1.0);
    first.add(Phase.MEASURE, period(2), 1.0);
    Measurement second = new Measurement(1, budget);
    second.add(Phase.MEASURE, period(3), 1.0);
    second.add(Phase.MEASURE, period(4), 1.0);

    assertEquals(0, first.samples().get(0).heldBytes());
    assertEquals(0, first.samples().get(1).heldBytes());
    assertTrue(second.samples().get(0).heldBytes() > 0);
    assertTrue(second.samples().get(1).heldBytes() > 0);
    assertEquals(2_000, first.measuredSent(), "released periods still count");
  }

  private static PeriodStats period(int index) {
    Histogram publish = Histograms.forMerging();
    Histogram endToEnd = Histograms.forMerging();
    for (int i = 1; i <= 1_000; i++) {
      publish.recordValue(1_000L * i + index);
      endToEnd.recordValue(2_000L * i + index);
    }
    return new PeriodCounts(1_000, 1_000, 0, 1_000, 0).withLatencies(publish, endToEnd);
  }
}
