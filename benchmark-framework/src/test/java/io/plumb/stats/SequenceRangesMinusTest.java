package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SequenceRangesMinusTest {
  @Test
  void removesEveryNumberOfTheOtherSet() {
    SequenceRanges all = new SequenceRanges(new long[] {0, 10, 20, 30});
    SequenceRanges some = new SequenceRanges(new long[] {2, 4, 8, 22, 25, 26, 29, 40});
    assertEquals(new SequenceRanges(new long[] {0, 2, 4, 8, 22, 25, 26, 29}), all.minus(some));
    assertEquals(SequenceRanges.EMPTY, all.minus(all));
    assertEquals(all, all.minus(SequenceRanges.EMPTY));
    assertEquals(SequenceRanges.EMPTY, SequenceRanges.EMPTY.minus(all));
    assertEquals(all.size() - all.overlap(some), all.minus(some).size());
  }

  @Test
  void forEachVisitsEachNumberInOrder() {
    List<Long> seen = new ArrayList<>();
    new SequenceRanges(new long[] {1, 3, 7, 9}).forEach(seen::add);
    assertEquals(List.of(1L, 2L, 7L, 8L), seen);
  }

  @Test
  void acknowledgementsPast32BitsOfSequenceKeepTheirFullNumbers() {
    PublishRecorder recorder = new PublishRecorder(1);
    long start = (1L << 32) - 3;
    for (long sequence = start; sequence < start + 6; sequence++) {
      recorder.acknowledged(0, (int) sequence, -1, 0, 0, 1);
    }
    // The numbers before start were never acknowledged: only the six around the 2^32 boundary.
    assertEquals(
        SequenceRanges.range(start, start + 6),
        recorder.ackedSequences(0).minus(SequenceRanges.range(0, start)));
  }
}
