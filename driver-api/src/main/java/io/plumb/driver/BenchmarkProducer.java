package io.plumb.driver;

/** Sends messages to one topic. */
public interface BenchmarkProducer extends AutoCloseable {

  /**
   * Sends one message and returns without waiting for the broker's acknowledgement.
   *
   * <p>{@code payload} is only valid until this method returns: the framework reuses the array for
   * the next message, so a client that keeps a reference to it after returning (rather than copying
   * it into its own buffers, as the Kafka client does) needs a copy.
   *
   * <p>When the broker acknowledges the message, or the send fails, the driver calls {@link
   * SendListener#sendCompleted} exactly once with the same {@code token}, from any thread.
   *
   * <p>The framework calls one producer's send methods from one thread at a time (a producer's
   * sends all come from the load thread it belongs to, its readiness probes before them), so a
   * driver may keep per-send state in plain fields, as the Pulsar driver's router does.
   *
   * @param key the message key, or {@code null} when the workload sends no keys
   * @param payload the bytes to send, including the framework's header
   * @param token an opaque value to hand back to {@code listener}
   * @param listener told when the send completes
   */
  void send(String key, byte[] payload, long token, SendListener listener);

  /**
   * Sends one message whose framework header travels in the broker's per-message metadata (a record
   * header, a message property, a stream field), so that {@code payload} is the message body alone
   * and may be as small as one byte. The framework calls it only on drivers that report {@link
   * BrokerFactNames#HEADER_METADATA}, and only when the run puts the header there (a workload's
   * {@code headerIn: metadata}, or a {@code messageSize} smaller than the header). A consumer hands
   * such a message to {@link MessageListener#received(byte[], byte[], int)}.
   *
   * <p>Both arrays are valid only until this method returns, as in {@link #send(String, byte[],
   * long, SendListener)}; completion is reported the same way.
   *
   * @param header the framework's header, to carry unchanged beside the body
   * @param payload the message body, without the header
   */
  default void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    throw new UnsupportedOperationException(
        "this driver carries no header in message metadata (it reports no "
            + BrokerFactNames.HEADER_METADATA
            + ")");
  }

  /**
   * The partition of a topic spread over {@code partitions} partitions that a message with {@code
   * key} goes to, for a driver that picks partitions itself: the same key always lands on the same
   * partition (so one key's messages stay in order), and messages without a key spread round robin
   * by {@code roundRobin}, a count the producer advances with each send.
   *
   * @param key the message key, or {@code null}
   * @return a partition index from 0 to {@code partitions - 1}
   */
  static int partitionFor(String key, int partitions, int roundRobin) {
    if (partitions == 1) {
      return 0;
    }
    return Math.floorMod(key == null ? roundRobin : key.hashCode(), partitions);
  }
}
