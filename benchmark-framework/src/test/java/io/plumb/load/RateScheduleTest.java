package io.plumb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RateScheduleTest {
  @Test
  void spacesMessagesEvenlyFromTheStart() {
    RateSchedule schedule = RateSchedule.of(1_000, 100_000);
    assertEquals(1_000, schedule.intendedTime(0));
    assertEquals(11_000, schedule.intendedTime(1));
    assertEquals(1_000 + 10_000_000_000L, schedule.intendedTime(1_000_000));
  }

  @Test
  void fractionalIntervalsDoNotDrift() {
    RateSchedule schedule = RateSchedule.of(0, 3);
    // 3 msg/s: the 3,000,000th message is due at exactly one million seconds, not a rounded
    // multiple.
    assertEquals(1_000_000_000_000_000L, schedule.intendedTime(3_000_000), 1_000);
  }

  @Test
  void countsMessagesDueByATime() {
    RateSchedule schedule = RateSchedule.of(1_000, 1_000);
    assertEquals(0, schedule.dueBy(999));
    assertEquals(1, schedule.dueBy(1_000));
    assertEquals(1, schedule.dueBy(1_000_999));
    assertEquals(2, schedule.dueBy(1_001_000));
  }

  @Test
  void rejectsRatesThatAreNotPositive() {
    assertThrows(IllegalArgumentException.class, () -> RateSchedule.of(0, 0));
    RateSchedule schedule = RateSchedule.of(0, 1_000);
    assertThrows(IllegalArgumentException.class, () -> schedule.changeRate(0, 0, -1));
    assertThrows(
        IllegalArgumentException.class, () -> schedule.changeRate(0, 0, Double.POSITIVE_INFINITY));
    assertThrows(IllegalArgumentException.class, () -> schedule.changeRate(0, 0, Double.NaN));
  }

  @Test
  void aRateChangeStartsAtTheNextUnsentMessageAndKeepsEarlierTimes() {
    // 1,000 msg/s from t=0: message n at n ms. At 5.5 ms, with messages 0..5 sent, go to 4,000.
    RateSchedule before = RateSchedule.of(0, 1_000);
    RateSchedule after = before.changeRate(6, 5_500_000, 4_000);
    for (long sequence = 0; sequence < 6; sequence++) {
      assertEquals(before.intendedTime(sequence), after.intendedTime(sequence), "seq " + sequence);
    }
    // Message 6 keeps its old time (6 ms); from there every 0.25 ms.
    assertEquals(6_000_000, after.intendedTime(6));
    assertEquals(6_250_000, after.intendedTime(7));
    assertEquals(6_000_000 + 1_000 * 250_000L, after.intendedTime(1_006));
    // A second change keeps both earlier segments.
    RateSchedule third = after.changeRate(1_006, 255_900_000, 100);
    assertEquals(3_000_000, third.intendedTime(3));
    assertEquals(6_250_000, third.intendedTime(7));
    assertEquals(256_000_000, third.intendedTime(1_006));
    assertEquals(266_000_000, third.intendedTime(1_007));
  }

  @Test
  void messagesAlreadyDueWhenTheRateChangesKeepTheirTimes() {
    // Behind schedule: at 10.5 ms only messages 0..2 went out, 3..10 are due and keep their times.
    RateSchedule before = RateSchedule.of(0, 1_000);
    RateSchedule after = before.changeRate(3, 10_500_000, 10);
    assertEquals(3_000_000, after.intendedTime(3));
    assertEquals(10_000_000, after.intendedTime(10));
    assertEquals(11_000_000, after.intendedTime(11));
    assertEquals(111_000_000, after.intendedTime(12));
  }

  @Test
  void dueByCountsEachSegmentAtItsOwnRate() {
    RateSchedule before = RateSchedule.of(0, 1_000);
    RateSchedule after = before.changeRate(6, 5_500_000, 4_000);
    assertEquals(before.dueBy(5_999_999), after.dueBy(5_999_999));
    assertEquals(6, after.dueBy(5_999_999));
    assertEquals(7, after.dueBy(6_000_000));
    assertEquals(7, after.dueBy(6_249_999));
    assertEquals(8, after.dueBy(6_250_000));
    // One second after the change: 4,000 more, not the old rate's 1,000.
    assertEquals(4_000, after.dueBy(1_006_000_000) - after.dueBy(6_000_000));
    assertEquals(0, after.dueBy(-1));
    // dueBy and intendedTime agree on both sides of the change.
    for (long sequence = 0; sequence < 2_000; sequence++) {
      long time = after.intendedTime(sequence);
      assertEquals(sequence + 1, after.dueBy(time), "seq " + sequence);
      assertEquals(sequence, after.dueBy(time - 1), "seq " + sequence);
    }
  }
}
