package io.plumb.load;

/**
 * Intended send times of one producer: message {@code n} is due at {@code start + n * interval}.
 * The schedule never looks at what the broker does, which is what makes the load open-loop, and it
 * is a pure function of the sequence number, so a completion can recompute its message's intended
 * time instead of carrying it.
 */
public record RateSchedule(long startNanos, double intervalNanos) {

  public static RateSchedule of(long startNanos, double messagesPerSecond) {
    if (!(messagesPerSecond > 0)) {
      throw new IllegalArgumentException("rate must be positive: " + messagesPerSecond);
    }
    return new RateSchedule(startNanos, 1e9 / messagesPerSecond);
  }

  public long intendedTime(long sequence) {
    return startNanos + (long) (sequence * intervalNanos);
  }

  /** How many messages are due by {@code time} (sequence numbers below the returned value). */
  public long dueBy(long time) {
    if (time < startNanos) {
      return 0;
    }
    return (long) ((time - startNanos) / intervalNanos) + 1;
  }
}
