package io.plumb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateScheduleTest {
  /** 1,000 msg/s from t=0: message n at n ms; the schedule the rate changes below start from. */
  private static final RateSchedule EVERY_MILLISECOND = RateSchedule.of(0, 1_000);

  @Test
  void spacesMessagesEvenlyFromTheStart() {
    assertEquals(
        List.of(1_000L, 11_000L, 1_000 + 10_000_000_000L),
        intendedTimes(RateSchedule.of(1_000, 100_000), 0, 1, 1_000_000));
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
    assertEquals(
        List.of(0L, 1L, 1L, 2L),
        dueBy(RateSchedule.of(1_000, 1_000), 999, 1_000, 1_000_999, 1_001_000));
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
    // At 5.5 ms, with messages 0..5 sent, go to 4,000 msg/s.
    RateSchedule after = EVERY_MILLISECOND.changeRate(6, 5_500_000, 4_000);
    for (long sequence = 0; sequence < 6; sequence++) {
      assertEquals(
          EVERY_MILLISECOND.intendedTime(sequence),
          after.intendedTime(sequence),
          "seq " + sequence);
    }
    // Message 6 keeps its old time (6 ms); from there every 0.25 ms.
    assertEquals(
        List.of(6_000_000L, 6_250_000L, 6_000_000 + 1_000 * 250_000L),
        intendedTimes(after, 6, 7, 1_006));
    // A second change keeps both earlier segments.
    RateSchedule third = after.changeRate(1_006, 255_900_000, 100);
    assertEquals(
        List.of(3_000_000L, 6_250_000L, 256_000_000L, 266_000_000L),
        intendedTimes(third, 3, 7, 1_006, 1_007));
  }

  @Test
  void messagesAlreadyDueWhenTheRateChangesKeepTheirTimes() {
    // Behind schedule: at 10.5 ms only messages 0..2 went out, 3..10 are due and keep their times.
    RateSchedule after = EVERY_MILLISECOND.changeRate(3, 10_500_000, 10);
    assertEquals(
        List.of(3_000_000L, 10_000_000L, 11_000_000L, 111_000_000L),
        intendedTimes(after, 3, 10, 11, 12));
  }

  @Test
  void dueByCountsEachSegmentAtItsOwnRate() {
    RateSchedule after = EVERY_MILLISECOND.changeRate(6, 5_500_000, 4_000);
    assertEquals(EVERY_MILLISECOND.dueBy(5_999_999), after.dueBy(5_999_999));
    assertEquals(List.of(6L, 7L, 7L, 8L), dueBy(after, 5_999_999, 6_000_000, 6_249_999, 6_250_000));
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

  /** The times {@code schedule} intends for {@code sequences}, in their order. */
  private static List<Long> intendedTimes(RateSchedule schedule, long... sequences) {
    return Arrays.stream(sequences).map(schedule::intendedTime).boxed().toList();
  }

  /** How many messages {@code schedule} has due by each of {@code times}, in their order. */
  private static List<Long> dueBy(RateSchedule schedule, long... times) {
    return Arrays.stream(times).map(schedule::dueBy).boxed().toList();
  }
}
