package io.plumb.driver;

/**
 * Receives messages from a consumer. Thread-safe: a driver may call it from any thread, and from
 * several at once.
 */
public interface MessageListener {

  /** For drivers that cannot tell which partition a message came from. */
  int UNKNOWN_PARTITION = -1;

  /**
   * Called once for every message the consumer receives, as soon as it arrives and before the
   * driver acknowledges it. The framework reads its header from {@code payload} before returning
   * and keeps no reference, so a driver may reuse the array afterwards.
   *
   * @param payload the message bytes exactly as they were sent
   * @param partition the partition (or queue, stream, subject) index the message arrived on, or
   *     {@link #UNKNOWN_PARTITION}; ordering is judged per consumer and partition, in the order of
   *     these calls (so a driver calls it in the order the consumer received the messages)
   */
  void received(byte[] payload, int partition);

  /**
   * Called when the consumer hit an error it could not recover from by itself, for example a failed
   * acknowledgement or a poll that threw. Counted and shown in the run's error totals.
   */
  void failed(Throwable error);
}
