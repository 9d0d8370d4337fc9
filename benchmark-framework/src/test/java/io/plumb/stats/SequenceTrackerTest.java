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

  @Test
  void nothingReceivedExportsNoRanges() {
    assertEquals(SequenceRanges.EMPTY, new SequenceTracker().received());
  }

  @Test
  void completedChunksExportAsOneRange() {
    SequenceTracker tracker = new SequenceTracker();
    // Three chunks of 65,536 completed and released, and part of the fourth.
    for (long sequence = 0; sequence < 200_000; sequence++) {
      tracker.record(sequence, 0);
    }
    assertEquals(SequenceRanges.range(0, 200_000), tracker.received());
    for (long sequence = 200_000; sequence < 4 * 65_536; sequence++) {
      tracker.record(sequence, 0);
    }
    assertEquals(SequenceRanges.range(0, 4 * 65_536), tracker.received());
  }

  @Test
  void gapsSplitTheExportAndItsSizeIsTheDistinctCount() {
    SequenceTracker tracker = new SequenceTracker();
    // 0 missing keeps every chunk open; a chunk completed behind it is held as complete in place.
    for (long sequence = 1; sequence < 140_000; sequence++) {
      if (sequence != 65_535 && sequence != 65_536 && sequence != 100_000) {
        tracker.record(sequence, 0);
      }
    }
    tracker.record(131_072 + 64, 0);
    tracker.record(300_000, 0);
    SequenceRanges received = tracker.received();
    assertEquals(
        new SequenceRanges(
            new long[] {1, 65_535, 65_537, 100_000, 100_001, 140_000, 300_000, 300_001}),
        received);
    assertEquals(tracker.distinct(), received.size());

    // The gaps filled: word and chunk boundaries join, and everything up to 140,000 is one range.
    tracker.record(0, 0);
    tracker.record(65_535, 0);
    tracker.record(65_536, 0);
    tracker.record(100_000, 0);
    assertEquals(new SequenceRanges(new long[] {0, 140_000, 300_000, 300_001}), tracker.received());
    assertEquals(tracker.distinct(), tracker.received().size());
  }

  @Test
  void aChunkCompletedBehindAGapExportsWhole() {
    SequenceTracker tracker = new SequenceTracker();
    tracker.record(5, 0);
    for (long sequence = 65_536; sequence < 2 * 65_536; sequence++) {
      tracker.record(sequence, 0);
    }
    assertEquals(new SequenceRanges(new long[] {5, 6, 65_536, 2 * 65_536}), tracker.received());
  }

  @Test
  void scatteredNumbersExportAsTheyArrived() {
    SequenceTracker tracker = new SequenceTracker();
    java.util.TreeSet<Long> expected = new java.util.TreeSet<>();
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 20_000; i++) {
      long sequence = random.nextInt(400_000);
      tracker.record(sequence, 0);
      expected.add(sequence);
    }
    SequenceRanges.Builder builder = new SequenceRanges.Builder();
    for (long sequence : expected) {
      builder.add(sequence, sequence + 1);
    }
    assertEquals(builder.build(), tracker.received());
    assertEquals(expected.size(), tracker.received().size());
  }

  @Test
  void aGapAfterAnUnalignedInOrderRunKeepsEveryEarlierNumber() {
    SequenceTracker tracker = new SequenceTracker();
    for (long sequence = 0; sequence < 70_000; sequence++) {
      tracker.record(sequence, 0);
    }
    // 70,000 is skipped: the tracker leaves its counter form for bits, mid-chunk.
    assertEquals(FIRST_IN_ORDER, tracker.record(70_001, 0));
    assertEquals(DUPLICATE, tracker.record(69_999, 0));
    assertEquals(DUPLICATE, tracker.record(65_536, 0));
    assertEquals(new SequenceRanges(new long[] {0, 70_000, 70_001, 70_002}), tracker.received());
    assertEquals(FIRST_OUT_OF_ORDER, tracker.record(70_000, 0));
    assertEquals(SequenceRanges.range(0, 70_002), tracker.received());
    // Once the chunk completes the tracker is a counter again, and still exact.
    for (long sequence = 70_002; sequence < 300_000; sequence++) {
      assertEquals(FIRST_IN_ORDER, tracker.record(sequence, 0));
    }
    assertEquals(DUPLICATE, tracker.record(131_071, 0));
    assertEquals(DUPLICATE, tracker.record(299_999, 0));
    assertEquals(SequenceRanges.range(0, 300_000), tracker.received());
    assertEquals(300_000, tracker.distinct());
  }
}
