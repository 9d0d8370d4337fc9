package io.plumb.loopback;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A topic's subscriptions and their consumers. Changes copy the arrays, so the send path reads them
 * without locking.
 */
final class LoopbackTopic {
  private final int partitions;
  private final Map<String, LoopbackConsumer[]> subscriptions = new LinkedHashMap<>();
  private volatile LoopbackConsumer[][] consumersBySubscription = new LoopbackConsumer[0][];

  LoopbackTopic(int partitions) {
    this.partitions = partitions;
  }

  int partitions() {
    return partitions;
  }

  LoopbackConsumer[][] consumers() {
    return consumersBySubscription;
  }

  synchronized void subscribe(String subscription, LoopbackConsumer consumer) {
    LoopbackConsumer[] current = subscriptions.getOrDefault(subscription, new LoopbackConsumer[0]);
    LoopbackConsumer[] grown = Arrays.copyOf(current, current.length + 1);
    grown[current.length] = consumer;
    subscriptions.put(subscription, grown);
    publish();
  }

  synchronized void unsubscribe(String subscription, LoopbackConsumer consumer) {
    LoopbackConsumer[] current = subscriptions.get(subscription);
    if (current == null) {
      return;
    }
    LoopbackConsumer[] remaining =
        Arrays.stream(current).filter(c -> c != consumer).toArray(LoopbackConsumer[]::new);
    if (remaining.length == 0) {
      subscriptions.remove(subscription);
    } else {
      subscriptions.put(subscription, remaining);
    }
    publish();
  }

  private void publish() {
    consumersBySubscription = subscriptions.values().toArray(new LoopbackConsumer[0][]);
  }
}
