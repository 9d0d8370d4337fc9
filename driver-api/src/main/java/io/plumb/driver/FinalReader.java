package io.plumb.driver;

import java.time.Duration;
import java.util.Optional;

/**
 * Optional capability of a {@link BenchmarkDriver}: reads what the broker still holds of a topic,
 * to the end the broker reports, once the load has stopped and every fault is healed.
 *
 * <p>Loss is judged against this read, as Jepsen judges it: a message the broker acknowledged is
 * lost only when neither the run's consumers nor this read, which saw the end, contained it.
 * Waiting for idle consumers can only ever say "not seen yet": a consumer still reconnecting after
 * a fault would count as loss, and a stream of redeliveries would hide it.
 *
 * <p>The framework calls it after every producer and consumer of the run is closed, once per
 * subscription, on one thread.
 */
public interface FinalReader {

  /**
   * Why this driver, as its file configures it, cannot read its topics to their end (core NATS and
   * Redis Pub/Sub keep nothing; a non-durable queue is gone with its consumer), in a few words for
   * the result and the console; empty when it can. The framework then keeps judging loss by the
   * drain alone, and says so.
   */
  default Optional<String> whyNoFinalRead() {
    return Optional.empty();
  }

  /**
   * Throws {@link IllegalStateException} naming {@link #whyNoFinalRead}'s reason when there is one:
   * the first line of a {@link #readToEnd} that must not be called where no read can be made.
   */
  default void requireFinalRead() {
    Optional<String> why = whyNoFinalRead();
    if (why.isPresent()) {
      throw new IllegalStateException("no final read: " + why.get());
    }
  }

  /**
   * Reads every message {@code topic} holds for {@code subscription}, from the first the run wrote
   * (a log from its start; a queue from what its consumers left) up to the end the broker reports
   * when the read starts (end offsets, queue depth, stream last sequence, XLEN or last ID, last
   * message ID), and hands each message to {@code sink} exactly as a consumer would, partition
   * included. A log-based broker may read the whole topic whatever the subscription; a queue-based
   * one reads (and may consume) the subscription's queue or queues.
   *
   * @param timeout how long the read may take; when the end is not reached by then, throw
   * @return what the broker reported as the end, in a few words for the result (for example "end
   *     offsets 1,204 + 1,198 on 2 partitions", "queue depth 0", "last sequence 40,112")
   * @throws Exception when the end cannot be reached or read; the run then says the final read
   *     failed and judges loss by the drain
   */
  String readToEnd(String topic, String subscription, MessageListener sink, Duration timeout)
      throws Exception;
}
