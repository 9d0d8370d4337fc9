package io.plumb.loopback;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Delivers each message to one consumer of every subscription (by key, or in turn without a key),
 * on the partition the key maps to, then acknowledges it.
 */
final class LoopbackProducer implements BenchmarkProducer {
  private final LoopbackTopic topic;
  private final Stall stall;
  private final Mishaps mishaps;
  private int nextPartition;
  // Sends the mishaps hold: failed on close, as a client fails what it still queues. Null without
  // mishaps: a loopback run of many producers holds nothing per producer.
  private final List<Held> held;

  private record Held(long token, int partition, SendListener listener) {}

  /**
   * @param mishaps which messages to hide from consumers, drop or hold; null for none
   */
  LoopbackProducer(LoopbackTopic topic, Stall stall, Mishaps mishaps) {
    this.topic = topic;
    this.stall = stall;
    this.mishaps = mishaps;
    this.held = mishaps == null ? null : new ArrayList<>();
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    send(key, null, payload, token, listener);
  }

  /** The header, when not null, travels beside the payload as a broker's metadata would. */
  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    if (stall != null) {
      stall.onMessage();
    }
    int partition;
    if (key == null) {
      partition = nextPartition;
      nextPartition = partition + 1 == topic.partitions() ? 0 : partition + 1;
    } else {
      partition = (key.hashCode() & Integer.MAX_VALUE) % topic.partitions();
    }
    Mishaps.Fate fate = Mishaps.Fate.DELIVER;
    if (mishaps != null) {
      fate = mishaps.next(partition);
      if (fate == Mishaps.Fate.HOLD) {
        synchronized (held) {
          held.add(new Held(token, partition, listener));
        }
        return;
      }
    }
    if (fate != Mishaps.Fate.DROP) {
      topic.keep(header, payload, partition);
    }
    if (fate == Mishaps.Fate.DELIVER) {
      for (MessageListener[] consumers : topic.consumers()) {
        // A division costs some 10 ns, a tenth of the loop's time per message at its ceiling; most
        // subscriptions have one consumer.
        MessageListener consumer =
            consumers.length == 1 ? consumers[0] : consumers[partition % consumers.length];
        if (header == null) {
          consumer.received(payload, partition);
        } else {
          consumer.received(header, payload, partition);
        }
      }
    }
    listener.sendCompleted(token, partition, null);
  }

  @Override
  public void close() {
    if (held == null) {
      return;
    }
    List<Held> failing;
    synchronized (held) {
      failing = List.copyOf(held);
      held.clear();
    }
    for (Held send : failing) {
      send.listener()
          .sendCompleted(
              send.token(),
              send.partition(),
              new IOException("producer closed before the broker answered"));
    }
  }
}
