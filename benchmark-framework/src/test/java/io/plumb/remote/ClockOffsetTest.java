package io.plumb.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClockOffsetTest {
  private static final long SKEW = 80_000_000L;

  @Test
  void keepsTheTightestRoundTripAndItsHalfAsUncertainty() {
    // Round trips of uneven, asymmetric delays; the third is the tightest (100 us each way).
    long[][] delays = {
      {3_000_000, 500_000}, {200_000, 4_000_000}, {100_000, 100_000}, {900_000, 50_000}
    };
    AtomicLong trueTime = new AtomicLong(1_700_000_000_000_000_000L);
    int[] round = {0};
    long[] phase = {0};
    ClockOffset offset =
        ClockOffset.measure(
            () -> {
              // The coordinator reads its clock before and after each round trip.
              if (phase[0]++ % 2 == 1) {
                trueTime.addAndGet(delays[round[0]++][1]);
              }
              return trueTime.get();
            },
            () -> {
              trueTime.addAndGet(delays[round[0]][0]);
              return trueTime.get() + SKEW;
            },
            delays.length);
    assertEquals(100_000, offset.uncertaintyNanos());
    assertEquals(SKEW, offset.offsetNanos());
  }

  @Test
  void theTrueOffsetLiesWithinTheUncertaintyEvenWhenDelaysAreLopsided() {
    AtomicLong trueTime = new AtomicLong(1_700_000_000_000_000_000L);
    long[] phase = {0};
    ClockOffset offset =
        ClockOffset.measure(
            () -> {
              if (phase[0]++ % 2 == 1) {
                trueTime.addAndGet(50_000); // fast way back
              }
              return trueTime.get();
            },
            () -> trueTime.addAndGet(950_000) - SKEW, // slow way there, clock behind
            5);
    assertEquals(500_000, offset.uncertaintyNanos());
    assertTrue(
        Math.abs(offset.offsetNanos() - (-SKEW)) <= offset.uncertaintyNanos(), "offset " + offset);
  }

  @Test
  void aLaterMeasurementThatAgreesLeavesTheOffsetInUseAsItWas() {
    ClockOffset inUse = new ClockOffset(80_000_000, 300_000);
    ClockOffset later = new ClockOffset(80_500_000, 400_000);
    assertEquals(inUse, inUse.checkedAgainst(later));
  }

  @Test
  void aClockThatDriftedBeyondBothIntervalsWidensTheUncertaintyOfTheOffsetInUse() {
    ClockOffset inUse = new ClockOffset(80_000_000, 300_000);
    // The clock moved 2 ms: the offset in use is now off by 2 ms give or take the later 0.4 ms.
    ClockOffset checked = inUse.checkedAgainst(new ClockOffset(82_000_000, 400_000));
    assertEquals(80_000_000, checked.offsetNanos());
    assertEquals(2_400_000, checked.uncertaintyNanos());
  }
}
