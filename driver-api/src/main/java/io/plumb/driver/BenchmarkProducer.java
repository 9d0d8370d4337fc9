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
   * @param key the message key, or {@code null} when the workload sends no keys
   * @param payload the bytes to send, including the framework's header
   * @param token an opaque value to hand back to {@code listener}
   * @param listener told when the send completes
   */
  void send(String key, byte[] payload, long token, SendListener listener);
}
