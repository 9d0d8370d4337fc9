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
  }
}
