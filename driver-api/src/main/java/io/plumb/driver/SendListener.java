package io.plumb.driver;

/**
 * Told when a send completes. Implementations are thread-safe; drivers may share one per producer.
 */
@FunctionalInterface
public interface SendListener {

  /** For drivers that cannot tell which partition a message went to. */
  int UNKNOWN_PARTITION = -1;

  /**
   * @param token the token given to {@link BenchmarkProducer#send}
   * @param failure {@code null} when the broker acknowledged the message, else why it failed
   */
  void sendCompleted(long token, Throwable failure);

  /**
   * The same, naming the partition (or queue, stream, subject index) the message went to, as {@link
   * MessageListener#received} numbers them. A driver that knows it calls this one: the framework
   * then measures unavailability per partition, so a healthy partition's acknowledgements never
   * hide another's outage. The default forgets the partition.
   *
   * @param partition the partition, or {@link #UNKNOWN_PARTITION} (for example a send that failed
   *     before the client chose one)
   */
  default void sendCompleted(long token, int partition, Throwable failure) {
    sendCompleted(token, failure);
  }
}
