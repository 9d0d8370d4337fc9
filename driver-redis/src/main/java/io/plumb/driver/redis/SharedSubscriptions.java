package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared readers of one kind, one per topic and subscription: the first consumer of a
 * subscription opens its reader, later ones join it, and the last one to leave closes it.
 */
final class SharedSubscriptions<S extends SharedSubscription> {
  /** Opens the reader of a subscription that has none yet. */
  interface Opener<S> {
    S open() throws Exception;
  }

  private final Map<String, S> byTopicAndSubscription = new HashMap<>();

  /** A consumer that is {@code listener}'s membership of the subscription's reader. */
  synchronized BenchmarkConsumer join(
      String topic, String subscription, MessageListener listener, Opener<S> opener)
      throws Exception {
    String id = topic + '\u0000' + subscription;
    S reader = byTopicAndSubscription.get(id);
    if (reader == null) {
      reader = opener.open();
      byTopicAndSubscription.put(id, reader);
    }
    reader.join(listener);
    S joined = reader;
    return () -> leave(id, joined, listener);
  }

  private synchronized void leave(String id, S joined, MessageListener listener)
      throws InterruptedException {
    if (joined.leave(listener)) {
      byTopicAndSubscription.remove(id, joined);
      joined.close();
    }
  }

  /** Closes every reader, whoever is still a member. */
  void closeAll() throws InterruptedException {
    List<S> open;
    synchronized (this) {
      open = new ArrayList<>(byTopicAndSubscription.values());
      byTopicAndSubscription.clear();
    }
    for (S reader : open) {
      reader.close();
    }
  }
}
