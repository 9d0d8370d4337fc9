package io.plumb.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.plumb.fault.BeforeFirstFault;
import io.plumb.fault.FaultFigures;
import io.plumb.stats.PeriodCounts;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The run's duplicates and reorderings include the warm-up's; the fault figures, which see only the
 * measured and drained periods, must too, so that they add up to the run's counters.
 */
class FaultWarmUpCountsTest {
  @Test
  void theWarmUpsDuplicatesCountBeforeTheFirstFault() {
    Measurement measurement = new Measurement(1, new HeldPeriods(Long.MAX_VALUE));
    measurement.add(
        Phase.WARM_UP, new PeriodCounts(1_000, 1_000, 0, 1_005, 5).withoutLatencies(), 1);
    for (int s = 0; s < 20; s++) {
      measurement.add(
          Phase.MEASURE, new PeriodCounts(1_000, 1_000, 0, 1_002, 2).withoutLatencies(), 1);
    }
    measurement.add(Phase.DRAIN, new PeriodCounts(0, 0, 0, 3, 3).withoutLatencies(), 0);
    // As the analysis found them: 10 in periods before the fault, 30 and the drain's 3 after it.
    FaultFigures analysed = new FaultFigures(List.of(), new BeforeFirstFault(0, 0, 0, 10, 0));

    FaultFigures figures =
        FaultSteps.withWarmUp(analysed, measurement.wholeRun(), measurement.measured());

    assertEquals(15, figures.beforeFirstFault().duplicates());
    assertEquals(5 + 40 + 3, measurement.wholeRun().duplicates(), "the run's own count");
  }
}
