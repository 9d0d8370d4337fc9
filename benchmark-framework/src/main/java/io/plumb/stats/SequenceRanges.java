package io.plumb.stats;

import java.util.Arrays;

/**
 * A set of sequence numbers as sorted, disjoint ranges: {@code bounds} holds {@code [start,
 * endExclusive)} pairs, each non-empty and separated from the next by at least one missing number.
 * One producer's messages received by one worker are normally a single range (or a few, around what
 * is missing), so this is how workers report what they received: a coordinator that unions the
 * workers' sets counts a message delivered to two workers once, and the overlap as duplicates.
 *
 * <p>Only one form is valid for any set (adjacent ranges are always joined), so equal sets have
 * equal bounds. Immutable: the array is copied in and out.
 *
 * @param bounds start and end (exclusive) of each range, ascending; even length
 */
public record SequenceRanges(long[] bounds) {
  public static final SequenceRanges EMPTY = new SequenceRanges(new long[0]);

  /** Checks the form as well, because the bounds may come over the wire from a worker. */
  public SequenceRanges {
    bounds = bounds.clone();
    if (bounds.length % 2 != 0) {
      throw new IllegalArgumentException("range bounds come in pairs: " + Arrays.toString(bounds));
    }
    for (int i = 0; i < bounds.length; i += 2) {
      boolean valid =
          bounds[i] >= 0 && bounds[i] < bounds[i + 1] && (i == 0 || bounds[i - 1] < bounds[i]);
      if (!valid) {
        throw new IllegalArgumentException(
            "ranges must be non-empty, ascending, disjoint and not adjacent: "
                + Arrays.toString(bounds));
      }
    }
  }

  /** The numbers from {@code start} up to, not including, {@code endExclusive}. */
  public static SequenceRanges range(long start, long endExclusive) {
    return start == endExclusive ? EMPTY : new SequenceRanges(new long[] {start, endExclusive});
  }

  @Override
  public long[] bounds() {
    return bounds.clone();
  }

  /** How many numbers are in the set. */
  public long size() {
    long size = 0;
    for (int i = 0; i < bounds.length; i += 2) {
      size += bounds[i + 1] - bounds[i];
    }
    return size;
  }

  /** How many separate ranges make up the set. */
  public int rangeCount() {
    return bounds.length / 2;
  }

  public boolean contains(long number) {
    // The index of the first bound above number: odd means it lies inside a range.
    int found = Arrays.binarySearch(bounds, number);
    int firstAbove = found >= 0 ? found + 1 : -found - 1;
    return firstAbove % 2 == 1;
  }

  /** Every number in this set or in {@code other}. */
  public SequenceRanges union(SequenceRanges other) {
    if (other.bounds.length == 0) {
      return this;
    }
    if (bounds.length == 0) {
      return other;
    }
    Builder merged = new Builder();
    int i = 0;
    int j = 0;
    // Ranges in order of start; the builder joins each to the last when they touch or overlap.
    while (i < bounds.length || j < other.bounds.length) {
      if (j >= other.bounds.length || (i < bounds.length && bounds[i] <= other.bounds[j])) {
        merged.add(bounds[i], bounds[i + 1]);
        i += 2;
      } else {
        merged.add(other.bounds[j], other.bounds[j + 1]);
        j += 2;
      }
    }
    return merged.build();
  }

  /** How many numbers are in both this set and {@code other}. */
  public long overlap(SequenceRanges other) {
    long both = 0;
    int i = 0;
    int j = 0;
    while (i < bounds.length && j < other.bounds.length) {
      long start = Math.max(bounds[i], other.bounds[j]);
      long end = Math.min(bounds[i + 1], other.bounds[j + 1]);
      if (start < end) {
        both += end - start;
      }
      // Whichever range ends first cannot meet any later range of the other set.
      if (bounds[i + 1] <= other.bounds[j + 1]) {
        i += 2;
      } else {
        j += 2;
      }
    }
    return both;
  }

  /** Every number in this set that is not in {@code other}. */
  public SequenceRanges minus(SequenceRanges other) {
    if (bounds.length == 0 || other.bounds.length == 0) {
      return this;
    }
    Builder left = new Builder();
    int j = 0;
    for (int i = 0; i < bounds.length; i += 2) {
      long start = bounds[i];
      long end = bounds[i + 1];
      // Skip the other's ranges that end before this one starts; they cannot cut it.
      while (j < other.bounds.length && other.bounds[j + 1] <= start) {
        j += 2;
      }
      int k = j;
      while (start < end && k < other.bounds.length && other.bounds[k] < end) {
        if (other.bounds[k] > start) {
          left.add(start, other.bounds[k]);
        }
        start = Math.max(start, other.bounds[k + 1]);
        k += 2;
      }
      if (start < end) {
        left.add(start, end);
      }
    }
    return left.build();
  }

  /** Calls {@code action} with each number in the set, in ascending order. */
  public void forEach(java.util.function.LongConsumer action) {
    for (int i = 0; i < bounds.length; i += 2) {
      for (long number = bounds[i]; number < bounds[i + 1]; number++) {
        action.accept(number);
      }
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SequenceRanges ranges && Arrays.equals(bounds, ranges.bounds);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bounds);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("SequenceRanges[");
    for (int i = 0; i < bounds.length; i += 2) {
      text.append(i == 0 ? "" : ", ").append(bounds[i]).append("..").append(bounds[i + 1]);
    }
    return text.append(']').toString();
  }

  /** Collects ranges added in order of start, joining those that touch or overlap. */
  static final class Builder {
    private long[] bounds = new long[8];
    private int length;

    void add(long start, long endExclusive) {
      if (start >= endExclusive) {
        return;
      }
      if (length > 0 && start <= bounds[length - 1]) {
        bounds[length - 1] = Math.max(bounds[length - 1], endExclusive);
        return;
      }
      if (length == bounds.length) {
        bounds = Arrays.copyOf(bounds, length * 2);
      }
      bounds[length++] = start;
      bounds[length++] = endExclusive;
    }

    SequenceRanges build() {
      return length == 0 ? EMPTY : new SequenceRanges(Arrays.copyOf(bounds, length));
    }
  }
}
