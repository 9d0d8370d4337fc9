package io.plumb.stats;

import static io.plumb.stats.SequenceTracker.Arrival.DUPLICATE;
import static io.plumb.stats.SequenceTracker.Arrival.FIRST_IN_ORDER;
import static io.plumb.stats.SequenceTracker.Arrival.FIRST_OUT_OF_ORDER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SequenceTrackerTest {
  @Test
  void inOrderArrivalsAreDistinctAndInOrder() {
    SequenceTracker tracker = new SequenceTracker();
    for (long sequence = 0; sequence < 200_000; sequence++) {
      assertEquals(FIRST_IN_ORDER, tracker.record(sequence, 0));
    }
    assertEquals(200_000, tracker.distinct());
  }

  @Test
  void aRepeatIsADuplicateHoweverLateItComes() {
    SequenceTracker tracker = new SequenceTracker();
    for (long sequence = 0; sequence < 300_000; sequence++) {
      tracker.record(sequence, 0);
    }
    // 5 lies in a chunk long completed and released; 299_999 in the open one.
    assertEquals(DUPLICATE, tracker.record(5, 0));
    assertEquals(DUPLICATE, tracker.record(299_999, 0));
    assertEquals(300_000, tracker.distinct());
  }

  @Test
  void aGapKeepsLaterChunksOpenUntilTheMissingNumberArrives() {
    SequenceTracker tracker = new SequenceTracker();
    for (long sequence = 1; sequence < 200_000; sequence++) {
      tracker.record(sequence, 0);
    }
    assertEquals(FIRST_OUT_OF_ORDER, tracker.record(0, 0));
    assertEquals(DUPLICATE, tracker.record(70_000, 0));
    assertEquals(200_000, tracker.distinct());
  }

  @Test
  void orderIsJudgedPerPartition() {
    SequenceTracker tracker = new SequenceTracker();
    assertEquals(FIRST_IN_ORDER, tracker.record(10, 1));
    // Earlier number, other partition: no ordering promise between partitions.
    assertEquals(FIRST_IN_ORDER, tracker.record(3, 2));
    assertEquals(FIRST_OUT_OF_ORDER, tracker.record(5, 1));
    assertEquals(FIRST_IN_ORDER, tracker.record(11, 1));
  }

  @Test
  void toleratesSequencesFarAhead() {
    SequenceTracker tracker = new SequenceTracker();
    assertEquals(FIRST_IN_ORDER, tracker.record(10_000_000, -1));
    assertEquals(FIRST_OUT_OF_ORDER, tracker.record(0, -1));
    assertEquals(DUPLICATE, tracker.record(10_000_000, -1));
    assertEquals(2, tracker.distinct());
  }
}
