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
   * The same, for a message whose framework header travelled in the broker's per-message metadata
   * (see {@link BenchmarkProducer#send(String, byte[], byte[], long, SendListener)}): a driver that
   * finds its header there calls this one, and the plain {@link #received(byte[], int)} for a
   * message without it. The framework reads both arrays before returning and keeps neither. The
   * default hands the header and body on joined, as one payload that starts with the header.
   *
   * @param header the header exactly as it was sent
   * @param payload the message body exactly as it was sent, without the header
   */
  default void received(byte[] header, byte[] payload, int partition) {
    byte[] joined = new byte[header.length + payload.length];
    System.arraycopy(header, 0, joined, 0, header.length);
    System.arraycopy(payload, 0, joined, header.length, payload.length);
    received(joined, partition);
  }

  /**
   * Called when the consumer hit an error it could not recover from by itself, for example a failed
   * acknowledgement or a poll that threw. Counted and shown in the run's error totals.
   */
  void failed(Throwable error);
}
