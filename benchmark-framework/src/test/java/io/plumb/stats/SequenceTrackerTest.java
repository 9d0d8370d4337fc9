package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SequenceTrackerTest {
  private final SequenceTracker tracker = new SequenceTracker();

  @Test
  void inOrderArrivalsAreDistinct() {
    for (long sequence = 0; sequence < 200_000; sequence++) {
      assertTrue(tracker.add(sequence));
    }
    assertEquals(200_000, tracker.distinct());
  }

  @Test
  void aRepeatIsADuplicateHoweverLateItComes() {
    addAll(0, 300_000);
    // 5 lies in a chunk long completed and released; 299_999 in the open one.
    assertDuplicates(5, 299_999);
    assertEquals(300_000, tracker.distinct());
  }

  @Test
  void aGapKeepsLaterChunksOpenUntilTheMissingNumberArrives() {
    addAll(1, 200_000);
    assertNew(0);
    assertDuplicates(70_000);
    assertEquals(200_000, tracker.distinct());
  }

  @Test
  void toleratesSequencesFarAhead() {
    assertNew(10_000_000, 0);
    assertDuplicates(10_000_000);
    assertEquals(2, tracker.distinct());
  }

  @Test
  void nothingReceivedExportsNoRanges() {
    assertEquals(SequenceRanges.EMPTY, tracker.received());
  }

  @Test
  void completedChunksExportAsOneRange() {
    // Three chunks of 65,536 completed and released, and part of the fourth.
    addAll(0, 200_000);
    assertEquals(SequenceRanges.range(0, 200_000), tracker.received());
    addAll(200_000, 4 * 65_536);
    assertEquals(SequenceRanges.range(0, 4 * 65_536), tracker.received());
  }

  @Test
  void gapsSplitTheExportAndItsSizeIsTheDistinctCount() {
    // 0 missing keeps every chunk open; a chunk completed behind it is held as complete in place.
    for (long sequence = 1; sequence < 140_000; sequence++) {
      if (sequence != 65_535 && sequence != 65_536 && sequence != 100_000) {
        tracker.add(sequence);
      }
    }
    tracker.add(131_072 + 64);
    tracker.add(300_000);
    SequenceRanges received = tracker.received();
    assertEquals(
        new SequenceRanges(
            new long[] {1, 65_535, 65_537, 100_000, 100_001, 140_000, 300_000, 300_001}),
        received);
    assertEquals(tracker.distinct(), received.size());

    // The gaps filled: word and chunk boundaries join, and everything up to 140,000 is one range.
    tracker.add(0);
    tracker.add(65_535);
    tracker.add(65_536);
    tracker.add(100_000);
    assertEquals(new SequenceRanges(new long[] {0, 140_000, 300_000, 300_001}), tracker.received());
    assertEquals(tracker.distinct(), tracker.received().size());
  }

  @Test
  void aChunkCompletedBehindAGapExportsWhole() {
    tracker.add(5);
    addAll(65_536, 2 * 65_536);
    assertEquals(new SequenceRanges(new long[] {5, 6, 65_536, 2 * 65_536}), tracker.received());
  }

  @Test
  void scatteredNumbersExportAsTheyArrived() {
    java.util.TreeSet<Long> expected = new java.util.TreeSet<>();
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 20_000; i++) {
      long sequence = random.nextInt(400_000);
      tracker.add(sequence);
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
    addAll(0, 70_000);
    // 70,000 is skipped: the tracker leaves its counter form for bits, mid-chunk.
    assertNew(70_001);
    assertDuplicates(69_999, 65_536);
    assertEquals(new SequenceRanges(new long[] {0, 70_000, 70_001, 70_002}), tracker.received());
    assertNew(70_000);
    assertEquals(SequenceRanges.range(0, 70_002), tracker.received());
    // Once the chunk completes the tracker is a counter again, and still exact.
    for (long sequence = 70_002; sequence < 300_000; sequence++) {
      assertTrue(tracker.add(sequence));
    }
    assertDuplicates(131_071, 299_999);
    assertEquals(SequenceRanges.range(0, 300_000), tracker.received());
    assertEquals(300_000, tracker.distinct());
  }

  /** Adds {@code from} to {@code to - 1}, in order. */
  private void addAll(long from, long to) {
    for (long sequence = from; sequence < to; sequence++) {
      tracker.add(sequence);
    }
  }

  /** Adds {@code sequences}, in order: each must be new to the tracker. */
  private void assertNew(long... sequences) {
    for (long sequence : sequences) {
      assertTrue(tracker.add(sequence), sequence + " is new");
    }
  }

  /** Adds {@code sequences} again, in order: each must be a duplicate. */
  private void assertDuplicates(long... sequences) {
    for (long sequence : sequences) {
      assertFalse(tracker.add(sequence), sequence + " is a duplicate");
    }
  }
}
