package io.plumb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.plumb.result.UntimedAcknowledgements;
import io.plumb.stats.PeriodStats;
import io.plumb.stats.PublishRecorder;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * Acknowledgements slower than a producer's ring of send times: their publish latency counts, their
 * service time cannot, and the figures say where service time may read low.
 */
class UntimedServiceTimeTest {
  private static final long MS = 1_000_000;

  @Test
  void aBrokerThatHoldsOneMessageInFiftyForThreeSecondsMarksServiceTimesTail() {
    // 1,000 msg/s for 20 s; every 50th message is acknowledged 3 s after its send, the rest in 1
    // ms.
    InFlightTimes inFlight = InFlightTimes.forRate(1_000);
    PublishRecorder recorder = new PublishRecorder(1);
    PriorityQueue<long[]> pending = new PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]));
    for (long sequence = 0; sequence < 20_000; sequence++) {
      long sentAt = sequence * MS;
      while (!pending.isEmpty() && pending.peek()[0] <= sentAt) {
        acknowledge(recorder, inFlight, pending.poll());
      }
      inFlight.put(sequence, sentAt);
      long serviceTime = sequence % 50 == 0 ? 3_000 * MS : MS;
      pending.add(new long[] {sentAt + serviceTime, sequence});
    }
    while (!pending.isEmpty()) {
      acknowledge(recorder, inFlight, pending.poll());
    }
    PeriodStats.Builder into = new PeriodStats.Builder();
    recorder.takePeriod(into);
    PeriodStats period = into.build();

    // 400 slow ones, of which the last 40 were acknowledged before their slot was reused.
    assertEquals(360, period.untimedAcknowledgements());
    assertEquals(3_000, period.publishLatency().getValueAtPercentile(99) / MS, 5);
    // Service time alone reads 1 ms at p99, where the truth is 3 s: the figures must say so.
    assertEquals(1, period.serviceTime().getValueAtPercentile(99) / MS, 0.01);
    UntimedAcknowledgements untimed = UntimedAcknowledgements.of(period);
    assertEquals(19_640, untimed.timed());
    assertEquals(98.2, untimed.fromPercentile(), 1e-9);
    assertTrue(untimed.mayReadLow(99));
    assertTrue(untimed.mayReadLow(100));
    assertFalse(untimed.mayReadLow(95));
    assertEquals(
        "Untimed      360 of 20,000 acknowledgements (1.80%) came after their producer let go of"
            + " their send time (it keeps about 2 s of sends at its starting rate): service time"
            + " and send delay leave them out, so above p98.2 they may read low (marked *); publish"
            + " and end-to-end latency count them",
        untimed.line().orElseThrow());
  }

  @Test
  void theBoundarysLabelIsRoundedDownToTheDigitsThatMatter() {
    assertEquals("p99.99", UntimedAcknowledgements.label(100 * (1 - 1e-4)));
    assertEquals("p99.95", UntimedAcknowledgements.label(99.95));
    assertEquals("p99.9", UntimedAcknowledgements.label(99.902));
    assertEquals("p98.2", UntimedAcknowledgements.label(98.2));
    assertEquals("p66.6", UntimedAcknowledgements.label(200.0 / 3));
    assertFalse(new UntimedAcknowledgements(1_000, 0).line().isPresent());
    assertFalse(new UntimedAcknowledgements(1_000, 0).mayReadLow(100));
  }

  private static void acknowledge(
      PublishRecorder recorder, InFlightTimes inFlight, long[] completion) {
    long sequence = completion[1];
    recorder.acknowledged(
        0, (int) sequence, -1, sequence * MS, inFlight.sentAt(sequence), completion[0]);
  }
}
