package io.plumb.loopback;

import io.plumb.driver.MessageListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A topic's subscriptions and their consumers. Changes copy the arrays, so the send path reads them
 * without locking. When asked to, it also keeps every message it acknowledged, for a final read.
 */
final class LoopbackTopic {
  private final int partitions;

  /** Every message kept, in the order kept; null when the driver keeps none. */
  private final List<Kept> kept;

  /** A message kept: {@code header} is null when the header travelled in the payload. */
  record Kept(byte[] header, byte[] payload, int partition) {}

  private final Map<String, MessageListener[]> subscriptions = new LinkedHashMap<>();
  private volatile MessageListener[][] consumersBySubscription = new MessageListener[0][];

  LoopbackTopic(int partitions, boolean keepMessages) {
    this.partitions = partitions;
    this.kept = keepMessages ? new ArrayList<>() : null;
  }

  /**
   * Keeps a copy of {@code header} (null when the header is in the payload) and {@code payload}
   * when this topic keeps messages; the sender reuses the arrays.
   */
  void keep(byte[] header, byte[] payload, int partition) {
    if (kept != null) {
      Kept copy = new Kept(header == null ? null : header.clone(), payload.clone(), partition);
      synchronized (kept) {
        kept.add(copy);
      }
    }
  }

  /** Whether this topic keeps what it acknowledges. */
  boolean keepsMessages() {
    return kept != null;
  }

  /** Every message kept so far, in order. */
  List<Kept> keptSoFar() {
    synchronized (kept) {
      return List.copyOf(kept);
    }
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
