package io.plumb.loopback;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides, by each message's place in the order of sends over all producers, whether the loopback
 * "broker" delivers it, keeps it from consumers, or loses it after acknowledging it (the two ways a
 * message can be missing at the end of a run, for tests of how loss is judged), or holds it
 * unanswered until its producer closes (for tests of unavailability).
 */
final class Mishaps {
  enum Fate {
    DELIVER,
    /** Acknowledged and kept, never handed to consumers. */
    HIDE,
    /** Acknowledged, then neither kept nor delivered. */
    DROP,
    /** Neither kept, delivered nor acknowledged: failed when its producer closes. */
    HOLD
  }

  private final LoopbackConfig config;
  private final AtomicLong messages = new AtomicLong();

  Mishaps(LoopbackConfig config) {
    this.config = config;
  }

  /**
   * @param partition the partition the message lands on
   */
  Fate next(int partition) {
    long number = messages.incrementAndGet();
    if (config.holdAfterMessages() > 0
        && number > config.holdAfterMessages()
        && partition == config.heldPartition()) {
      return Fate.HOLD;
    }
    if (within(number, config.dropAfterMessages(), config.droppedMessages())) {
      return Fate.DROP;
    }
    if (within(number, config.hideAfterMessages(), config.hiddenMessages())) {
      return Fate.HIDE;
    }
    return Fate.DELIVER;
  }

  private static boolean within(long number, long after, long count) {
    return after > 0 && number > after && number <= after + count;
  }
}
