package io.plumb.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SequenceRangesTest {
  private static SequenceRanges of(long... bounds) {
    return new SequenceRanges(bounds);
  }

  @Test
  void theEmptySetHasNothingAndChangesNothing() {
    SequenceRanges some = of(3, 9);
    assertEquals(0, SequenceRanges.EMPTY.size());
    assertEquals(0, SequenceRanges.EMPTY.rangeCount());
    assertFalse(SequenceRanges.EMPTY.contains(0));
    assertSame(some, some.union(SequenceRanges.EMPTY));
    assertSame(some, SequenceRanges.EMPTY.union(some));
    assertEquals(SequenceRanges.EMPTY, SequenceRanges.EMPTY.union(SequenceRanges.EMPTY));
    assertEquals(0, some.overlap(SequenceRanges.EMPTY));
    assertEquals(0, SequenceRanges.EMPTY.overlap(some));
    assertEquals(SequenceRanges.EMPTY, SequenceRanges.range(5, 5));
  }

  @Test
  void disjointSetsUniteWithoutOverlap() {
    SequenceRanges low = of(0, 10, 20, 30);
    SequenceRanges high = of(12, 15, 40, 50);
    assertEquals(of(0, 10, 12, 15, 20, 30, 40, 50), low.union(high));
    assertEquals(low.union(high), high.union(low));
    assertEquals(33, low.union(high).size());
    assertEquals(0, low.overlap(high));
    assertEquals(0, high.overlap(low));
  }

  @Test
  void overlappingSetsCountTheSharedNumbersOnce() {
    SequenceRanges first = of(0, 100);
    SequenceRanges second = of(50, 150);
    assertEquals(of(0, 150), first.union(second));
    assertEquals(50, first.overlap(second));
    assertEquals(50, second.overlap(first));
    // One range inside another, and a set meeting several ranges of the other.
    assertEquals(of(0, 100), first.union(of(10, 20)));
    assertEquals(10, first.overlap(of(10, 20)));
    SequenceRanges gappy = of(0, 10, 20, 30, 40, 50);
    assertEquals(of(0, 60), gappy.union(of(5, 60)));
    assertEquals(5 + 10 + 10, gappy.overlap(of(5, 60)));
    assertEquals(gappy.size(), gappy.overlap(gappy));
    assertEquals(gappy, gappy.union(gappy));
  }

  @Test
  void adjacentRangesJoinIntoOne() {
    SequenceRanges joined = of(0, 10).union(of(10, 20));
    assertEquals(of(0, 20), joined);
    assertEquals(1, joined.rangeCount());
    assertEquals(0, of(0, 10).overlap(of(10, 20)));
    // Filling the one gap between two ranges leaves a single range.
    assertEquals(of(0, 30), of(0, 10, 11, 30).union(of(10, 11)));
  }

  @Test
  void onlyTheOneFormOfASetIsAccepted() {
    assertThrows(IllegalArgumentException.class, () -> of(1, 2, 3));
    assertThrows(IllegalArgumentException.class, () -> of(5, 5));
    assertThrows(IllegalArgumentException.class, () -> of(5, 4));
    assertThrows(IllegalArgumentException.class, () -> of(0, 10, 10, 20));
    assertThrows(IllegalArgumentException.class, () -> of(0, 10, 5, 20));
    assertThrows(IllegalArgumentException.class, () -> of(-1, 3));
  }

  @Test
  void manyGapsAgreeWithABitSet() {
    Random random = new Random(42);
    for (int round = 0; round < 50; round++) {
      BitSet a = randomBits(random);
      BitSet b = randomBits(random);
      SequenceRanges rangesA = fromBits(a);
      SequenceRanges rangesB = fromBits(b);
      assertEquals(a.cardinality(), rangesA.size());
      BitSet union = (BitSet) a.clone();
      union.or(b);
      BitSet both = (BitSet) a.clone();
      both.and(b);
      assertEquals(fromBits(union), rangesA.union(rangesB));
      assertEquals(both.cardinality(), rangesA.overlap(rangesB));
      assertEquals(both.cardinality(), rangesB.overlap(rangesA));
      // |A ∪ B| = |A| + |B| - |A ∩ B|: what the coordinator counts as duplicates.
      assertEquals(
          rangesA.size() + rangesB.size() - rangesA.overlap(rangesB),
          rangesA.union(rangesB).size());
      for (int i = 0; i < 2_100; i++) {
        assertEquals(a.get(i), rangesA.contains(i), "number " + i);
      }
    }
  }

  @Test
  void arraysAreCopiedInAndOut() {
    long[] bounds = {0, 10};
    SequenceRanges ranges = new SequenceRanges(bounds);
    bounds[1] = 99;
    ranges.bounds()[1] = 99;
    assertArrayEquals(new long[] {0, 10}, ranges.bounds());
  }

  private static BitSet randomBits(Random random) {
    BitSet bits = new BitSet();
    int i = random.nextInt(5);
    while (i < 2_000) {
      int run = 1 + random.nextInt(random.nextBoolean() ? 3 : 60);
      bits.set(i, Math.min(2_000, i + run));
      i += run + 1 + random.nextInt(random.nextBoolean() ? 2 : 40);
    }
    return bits;
  }

  private static SequenceRanges fromBits(BitSet bits) {
    SequenceRanges.Builder builder = new SequenceRanges.Builder();
    for (int start = bits.nextSetBit(0); start >= 0; start = bits.nextSetBit(start)) {
      int end = bits.nextClearBit(start);
      builder.add(start, end);
      start = end;
    }
    return builder.build();
  }
}
