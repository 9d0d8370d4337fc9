package io.plumb.driver.redis;

import io.plumb.driver.MessageListener;

/** One reader of a topic that the consumers of a subscription share, each a member of it. */
interface SharedSubscription {
  void join(MessageListener member);

  /** Removes a member; returns true when none is left (the caller then closes this). */
  boolean leave(MessageListener member);

  void close() throws InterruptedException;
}
