package io.plumb.stats;

/**
 * What subscriptions received in a period, as counts: one object for the receiving side's seven
 * counters, so that the collector counting messages and the builder summing periods keep them the
 * same way. Mutable and not thread-safe: a {@link ReceivePeriod} counts into one on the collector's
 * thread, and a {@link PeriodStats.Builder} adds them up.
 */
final class ReceiveCounts {
  long received;
  long bytes;
  long duplicates;
  long outOfOrder;

  /** End-to-end latencies below zero (clocks that disagree by more than the latency). */
  long negative;

  /** Messages not from this run, or without a producer. */
  long foreign;

  long errors;

  /** The receiving side's counts of a finished period. */
  static ReceiveCounts of(PeriodStats stats) {
    ReceiveCounts counts = new ReceiveCounts();
    counts.received = stats.received();
    counts.bytes = stats.receivedBytes();
    counts.duplicates = stats.duplicates();
    counts.outOfOrder = stats.outOfOrder();
    counts.negative = stats.negativeEndToEnd();
    counts.foreign = stats.foreign();
    counts.errors = stats.consumerErrors();
    return counts;
  }

  void add(ReceiveCounts other) {
    received += other.received;
    bytes += other.bytes;
    duplicates += other.duplicates;
    outOfOrder += other.outOfOrder;
    negative += other.negative;
    foreign += other.foreign;
    errors += other.errors;
  }
}
