package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClockCorrectionsTest {
  private static final long MS = 1_000_000L;
  private static final long SKEW = 80 * MS;

  /** Producer 1's worker reads 80 ms ahead of the consumer's; producer 0 shares its clock. */
  private final ClockCorrections corrections = ClockCorrections.bySlot(List.of(0L, SKEW));

  @Test
  void producersAreDealtToSlotsRoundRobin() {
    assertEquals(0, corrections.forProducer(0));
    assertEquals(SKEW, corrections.forProducer(1));
    assertEquals(0, corrections.forProducer(2));
    assertEquals(SKEW, corrections.forProducer(5));
    assertEquals(1, ClockCorrections.slotOf(5, 2));
    assertEquals(0, ClockCorrections.NONE.forProducer(12));
  }

  @Test
  void aSkewedProducerClockNeitherInflatesNorDropsEndToEndLatency() {
    long trueSend = 1_700_000_000_000_000_000L;
    long trueReceive = trueSend + 2 * MS;
    // Receive time on the consumer's clock minus the intended send time on the producer's.
    long skewedRaw = trueReceive - (trueSend + SKEW);
    long sharedRaw = trueReceive - trueSend;

    SubscriptionRecorder corrected = new SubscriptionRecorder("t", "s", corrections);
    corrected.delivered(1, 64, 0, skewedRaw, false);
    corrected.delivered(0, 64, 0, sharedRaw, false);
    PeriodStats stats = take(corrected);
    assertEquals(0, stats.negativeEndToEnd());
    assertEquals(2, stats.endToEndLatency().getTotalCount());
    assertEquals(2 * MS, stats.endToEndLatency().getMaxValue(), 2 * MS / 1000.0);
    assertEquals(2 * MS, stats.endToEndLatency().getMinValue(), 2 * MS / 1000.0);

    // Without the correction the same message would be 78 ms "before" it was sent.
    SubscriptionRecorder uncorrected = new SubscriptionRecorder("t", "s", ClockCorrections.NONE);
    uncorrected.delivered(1, 64, 0, skewedRaw, false);
    assertEquals(1, take(uncorrected).negativeEndToEnd());
  }

  private static PeriodStats take(SubscriptionRecorder recorder) {
    PeriodStats.Builder builder = new PeriodStats.Builder();
    recorder.takePeriod(builder);
    return builder.build();
  }
}
