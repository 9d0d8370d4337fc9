package io.plumb.driver;

/**
 * Told when a send completes. Implementations are thread-safe; drivers may share one per producer.
 */
@FunctionalInterface
public interface SendListener {

  /**
   * @param token the token given to {@link BenchmarkProducer#send}
   * @param failure {@code null} when the broker acknowledged the message, else why it failed
   */
  void sendCompleted(long token, Throwable failure);
}
