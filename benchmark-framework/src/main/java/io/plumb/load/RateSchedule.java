package io.plumb.load;

/**
 * Intended send times of one producer: message {@code n} is due at {@code start + n * interval}.
 * The schedule never looks at what the broker does, which is what makes the load open-loop, and it
 * is a pure function of the sequence number, so a completion can recompute its message's intended
 * time instead of carrying it.
 *
 * <p>A rate change mid-run ({@link #changeRate}) keeps that property: it returns a new segment that
 * covers sequences from {@code firstSequence} on and keeps the old schedule as {@code previous} for
 * the sequences before, so messages sent at the old rate keep their old intended times whenever
 * their completions ask. Every field is final: a completion thread that reads the producer's
 * schedule without synchronisation sees a whole segment, old or new, and both agree on the
 * sequences it can ask about.
 *
 * @param startNanos intended time of {@code firstSequence}
 * @param firstSequence the first sequence this segment covers (0 for a schedule that never changed)
 * @param previous the schedule of the sequences before {@code firstSequence}, or null
 */
public record RateSchedule(
    long startNanos, double intervalNanos, long firstSequence, RateSchedule previous) {

  /** A schedule that starts at {@code startNanos} and has never changed rate. */
  public RateSchedule(long startNanos, double intervalNanos) {
    this(startNanos, intervalNanos, 0, null);
  }

  public static RateSchedule of(long startNanos, double messagesPerSecond) {
    return new RateSchedule(startNanos, intervalFor(messagesPerSecond));
  }

  public long intendedTime(long sequence) {
    if (sequence >= firstSequence || previous == null) {
      return startNanos + (long) ((sequence - firstSequence) * intervalNanos);
    }
    return earlierSegment(sequence).intendedTime(sequence);
  }

  /** How many messages are due by {@code time} (sequence numbers below the returned value). */
  public long dueBy(long time) {
    if (time < startNanos) {
      // Segments start no earlier than the previous one's times; the cap guards rounding.
      return previous == null ? 0 : Math.min(firstSequence, previous.dueBy(time));
    }
    return firstSequence + (long) ((time - startNanos) / intervalNanos) + 1;
  }

  /**
   * The same schedule up to the first message not yet due at {@code now} (or {@code nextUnsent}, if
   * later), and {@code messagesPerSecond} from there on, starting at that message's intended time.
   * Messages already due keep their times, so a producer behind its schedule at the change still
   * reports how late they went out; no message gets a time earlier than the one it had.
   */
  public RateSchedule changeRate(long nextUnsent, long now, double messagesPerSecond) {
    double interval = intervalFor(messagesPerSecond);
    long first = Math.max(nextUnsent, dueBy(now));
    return new RateSchedule(intendedTime(first), interval, first, this);
  }

  private RateSchedule earlierSegment(long sequence) {
    RateSchedule segment = previous;
    while (sequence < segment.firstSequence && segment.previous != null) {
      segment = segment.previous;
    }
    return segment;
  }

  private static double intervalFor(double messagesPerSecond) {
    if (!(messagesPerSecond > 0) || Double.isInfinite(messagesPerSecond)) {
      throw new IllegalArgumentException("rate must be positive: " + messagesPerSecond);
    }
    return 1e9 / messagesPerSecond;
  }
}
