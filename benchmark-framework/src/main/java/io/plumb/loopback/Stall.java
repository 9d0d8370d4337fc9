package io.plumb.loopback;

import java.util.concurrent.atomic.AtomicLong;

/** Blocks one send for a fixed time after a number of messages, as a pausing broker would. */
final class Stall {
  private final long afterMessages;
  private final long millis;
  private final AtomicLong messages = new AtomicLong();

  Stall(long afterMessages, long millis) {
    this.afterMessages = afterMessages;
    this.millis = millis;
  }

  void onMessage() {
    if (messages.incrementAndGet() == afterMessages) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
