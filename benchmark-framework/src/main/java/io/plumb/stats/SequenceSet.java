package io.plumb.stats;

/**
 * A growing set of one producer's sequence numbers, for code outside the per-message path (the
 * final read) that needs the same compact bookkeeping as a subscription's recorder. Not
 * thread-safe.
 */
public final class SequenceSet {
  private final SequenceTracker tracker = new SequenceTracker();

  /** Adds {@code sequence}; false when it was already in the set. */
  public boolean add(long sequence) {
    return tracker.add(sequence);
  }

  public long size() {
    return tracker.distinct();
  }

  public SequenceRanges ranges() {
    return tracker.received();
  }
}
