package io.plumb.loopback;

import io.plumb.driver.MessageListener;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A topic's subscriptions and their consumers. Changes copy the arrays, so the send path reads them
 * without locking.
 */
final class LoopbackTopic {
  private final int partitions;
  private final Map<String, MessageListener[]> subscriptions = new LinkedHashMap<>();
  private volatile MessageListener[][] consumersBySubscription = new MessageListener[0][];

  LoopbackTopic(int partitions) {
    this.partitions = partitions;
  }

  int partitions() {
    return partitions;
  }

  MessageListener[][] consumers() {
    return consumersBySubscription;
  }

  synchronized void subscribe(String subscription, MessageListener listener) {
    MessageListener[] current = subscriptions.getOrDefault(subscription, new MessageListener[0]);
    MessageListener[] grown = Arrays.copyOf(current, current.length + 1);
    grown[current.length] = listener;
    subscriptions.put(subscription, grown);
    publish();
  }

  synchronized void unsubscribe(String subscription, MessageListener listener) {
    MessageListener[] current = subscriptions.get(subscription);
    if (current == null) {
      return;
    }
    MessageListener[] remaining =
        Arrays.stream(current).filter(l -> l != listener).toArray(MessageListener[]::new);
    if (remaining.length == 0) {
      subscriptions.remove(subscription);
    } else {
      subscriptions.put(subscription, remaining);
    }
    publish();
  }

  private void publish() {
    consumersBySubscription = subscriptions.values().toArray(new MessageListener[0][]);
  }
}
