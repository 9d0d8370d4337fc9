package io.plumb.stats;

import java.util.Arrays;

/**
 * Which sequence numbers of one producer a subscription has received, so that duplicates are
 * detected exactly however late they arrive. (Ordering is judged where messages arrive: see {@link
 * SubscriptionRecorder}.)
 *
 * <p>While numbers arrive in order, which is the usual case, the tracker is a counter: every number
 * below {@code floor} has arrived, and nothing else is kept. The first gap opens chunks of 65,536
 * bits, allocated when first touched and released (replaced by a shared marker) once every number
 * in them has arrived; once every open chunk is released the tracker is a counter again. So memory
 * stays proportional to the numbers still missing, not to the length of the run, and a producer
 * whose messages arrive in order costs a few dozen bytes however many producers a worker holds. Not
 * thread-safe: the owning {@link SubscriptionRecorder} serialises calls.
 */
final class SequenceTracker {
  private static final int CHUNK_SHIFT = 16;
  private static final int CHUNK_SIZE = 1 << CHUNK_SHIFT;
  private static final long[] COMPLETE = new long[0];
  private static final long[][] NO_CHUNKS = new long[0][];
  private static final int[] NO_COUNTS = new int[0];

  /**
   * Every sequence number below it has arrived. With no chunk open it moves with each in-order
   * arrival; while chunks are open it is the start of the first one (a multiple of CHUNK_SIZE).
   */
  private long floor;

  /**
   * Ring of chunk bitsets starting at chunk {@code floor >> CHUNK_SHIFT}; null means not touched
   * yet. Its length is a power of two, so positions wrap with a mask rather than a division. Empty
   * until the first gap.
   */
  private long[][] chunks = NO_CHUNKS;

  private int[] chunkCounts = NO_COUNTS;
  private int head;

  /** Slots of {@code chunks} that are not null (allocated or complete and not yet released). */
  private int liveChunks;

  private long distinct;

  /** Records {@code sequence}; false when it had been recorded before. */
  boolean add(long sequence) {
    if (!markArrived(sequence)) {
      return false;
    }
    distinct++;
    return true;
  }

  long distinct() {
    return distinct;
  }

  /**
   * Every sequence number that has arrived, as ranges: one for all released chunks, then the runs
   * of set bits in the open ones. Walks the open chunks' bits, so it is for the end of a run (and
   * the drain's polls), never for the per-message path.
   */
  SequenceRanges received() {
    SequenceRanges.Builder ranges = new SequenceRanges.Builder();
    ranges.add(0, floor);
    for (int offset = 0; liveChunks > 0 && offset < chunks.length; offset++) {
      long[] bits = chunks[(head + offset) & (chunks.length - 1)];
      long base = floor + ((long) offset << CHUNK_SHIFT);
      if (bits == COMPLETE) {
        ranges.add(base, base + CHUNK_SIZE);
      } else if (bits != null) {
        int start = nextBit(bits, 0, true);
        while (start < CHUNK_SIZE) {
          int end = nextBit(bits, start, false);
          ranges.add(base + start, base + end);
          start = nextBit(bits, end, true);
        }
      }
    }
    return ranges.build();
  }

  /** The first index at or after {@code from} whose bit is {@code set}; CHUNK_SIZE if none. */
  private static int nextBit(long[] bits, int from, boolean set) {
    int word = from >>> 6;
    if (word >= bits.length) {
      return CHUNK_SIZE;
    }
    long candidates = (set ? bits[word] : ~bits[word]) & (-1L << (from & 63));
    while (candidates == 0) {
      if (++word == bits.length) {
        return CHUNK_SIZE;
      }
      candidates = set ? bits[word] : ~bits[word];
    }
    return (word << 6) + Long.numberOfTrailingZeros(candidates);
  }

  /** Marks {@code sequence} as arrived; false when it had arrived before. */
  private boolean markArrived(long sequence) {
    if (liveChunks == 0) {
      if (sequence == floor) {
        floor++;
        return true;
      }
      if (sequence < floor) {
        return false;
      }
      openChunkAtFloor();
    }
    long offset = (sequence >>> CHUNK_SHIFT) - (floor >>> CHUNK_SHIFT);
    if (offset < 0) {
      return false;
    }
    if (offset >= chunks.length) {
      grow((int) offset + 1);
    }
    int slot = (int) ((head + offset) & (chunks.length - 1));
    long[] bits = chunks[slot];
    if (bits == COMPLETE) {
      return false;
    }
    if (bits == null) {
      bits = new long[CHUNK_SIZE / 64];
      chunks[slot] = bits;
      liveChunks++;
    }
    int index = (int) (sequence & (CHUNK_SIZE - 1));
    long mask = 1L << index;
    int word = index >>> 6;
    if ((bits[word] & mask) != 0) {
      return false;
    }
    bits[word] |= mask;
    if (++chunkCounts[slot] == CHUNK_SIZE) {
      chunks[slot] = COMPLETE;
      releaseCompleteChunksAtHead();
    }
    return true;
  }

  /**
   * The first gap: from now on arrivals are bits in chunks, the first being the one that holds
   * {@code floor}, with the numbers below {@code floor} in it already set.
   */
  private void openChunkAtFloor() {
    if (chunks.length == 0) {
      chunks = new long[4][];
      chunkCounts = new int[4];
    }
    head = 0;
    int arrived = (int) (floor & (CHUNK_SIZE - 1));
    floor -= arrived;
    if (arrived > 0) {
      long[] bits = new long[CHUNK_SIZE / 64];
      int fullWords = arrived >>> 6;
      Arrays.fill(bits, 0, fullWords, -1L);
      if ((arrived & 63) != 0) {
        bits[fullWords] = (1L << (arrived & 63)) - 1;
      }
      chunks[0] = bits;
      chunkCounts[0] = arrived;
      liveChunks = 1;
    }
  }

  private void releaseCompleteChunksAtHead() {
    while (chunks[head] == COMPLETE) {
      chunks[head] = null;
      chunkCounts[head] = 0;
      head = (head + 1) & (chunks.length - 1);
      floor += CHUNK_SIZE;
      liveChunks--;
    }
  }

  private void grow(int needed) {
    int length = Math.max(4, chunks.length);
    while (length < needed) {
      length *= 2;
    }
    long[][] grownChunks = new long[length][];
    int[] grownCounts = new int[length];
    for (int i = 0; i < chunks.length; i++) {
      int from = (head + i) & (chunks.length - 1);
      grownChunks[i] = chunks[from];
      grownCounts[i] = chunkCounts[from];
    }
    chunks = grownChunks;
    chunkCounts = grownCounts;
    head = 0;
  }
}
