package io.plumb.driver;

/**
 * Receives the messages of one subscription; closing it stops delivery.
 *
 * <p>Backlog workloads ({@code consumerBacklogSizeGB}) stop consumers while producers build a
 * backlog, then let them drain it. A driver that can do this overrides {@link #pause} and {@link
 * #resume}; the defaults say it cannot, so drivers written before these methods existed still
 * compile and the framework reports the missing capability in one line.
 */
public interface BenchmarkConsumer extends AutoCloseable {

  /**
   * Stops delivering messages until {@link #resume}; messages published meanwhile stay on the
   * broker. Must return at once without blocking the caller or the client's own threads (for
   * example, flag the consumer's poll thread rather than wait for it), and may take effect a little
   * later: a few messages already on their way may still arrive. Calling it twice is harmless.
   *
   * @throws UnsupportedOperationException when the driver cannot pause this consumer
   */
  default void pause() {
    throw new UnsupportedOperationException(
        getClass().getName() + " cannot pause consumers (it does not implement pause/resume)");
  }

  /**
   * Delivers again from where {@link #pause} stopped, without losing or repeating messages. Returns
   * at once, like {@link #pause}.
   *
   * @throws UnsupportedOperationException when the driver cannot pause this consumer
   */
  default void resume() {
    throw new UnsupportedOperationException(
        getClass().getName() + " cannot pause consumers (it does not implement pause/resume)");
  }
}
