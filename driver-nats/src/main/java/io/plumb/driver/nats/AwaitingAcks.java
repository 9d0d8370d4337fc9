package io.plumb.driver.nats;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One producer's publishes awaiting their ack, each under a key that holds the wall-clock
 * millisecond it was sent. When the connection is lost, the acks of the publishes sent by then can
 * no longer come; those sent since wait in jnats's reconnect buffer, go out once it reconnects, and
 * are acknowledged. jnats stamps the loss when it happens but reports it on its callback thread,
 * which may be after it has reconnected: failing every publish awaiting its ack at that point would
 * count sends as failed that the stream stores and acknowledges.
 */
final class AwaitingAcks {

  /** Low bits of a key: a count that keeps two publishes of one millisecond apart. */
  private static final int COUNT_BITS = 20;

  private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

  private final Map<Long, CompletableFuture<?>> awaiting = new ConcurrentHashMap<>();
  private final AtomicLong count = new AtomicLong();

  /**
   * Registers {@code ack} of a publish sent at {@code sentAtMillis} ({@link
   * System#currentTimeMillis}, the clock jnats stamps connection events with).
   *
   * @return the key to {@link #remove} it under once it completes
   */
  long add(CompletableFuture<?> ack, long sentAtMillis) {
    // Unique among the awaiting publishes: two keys alike would need 2^20 sends in a millisecond.
    long key = sentAtMillis << COUNT_BITS | count.getAndIncrement() & COUNT_MASK;
    awaiting.put(key, ack);
    return key;
  }

  void remove(long key) {
    awaiting.remove(key);
  }

  /**
   * Fails each publish sent at or before {@code lostAtMillis} that still awaits its ack. One sent
   * in that same millisecond after the loss fails too, though its ack may come: the count errs by
   * at most a millisecond's publishes, on the cautious side.
   */
  void failSentBy(long lostAtMillis, Throwable cause) {
    awaiting.forEach(
        (key, ack) -> {
          if (key >>> COUNT_BITS <= lostAtMillis) {
            ack.completeExceptionally(cause);
          }
        });
  }
}
