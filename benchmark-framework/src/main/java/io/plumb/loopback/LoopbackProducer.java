package io.plumb.loopback;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;

/**
 * Delivers each message to one consumer of every subscription (by key, or in turn without a key),
 * on the partition the key maps to, then acknowledges it.
 */
final class LoopbackProducer implements BenchmarkProducer {
  private final LoopbackTopic topic;
  private final Stall stall;
  private int nextPartition;

  LoopbackProducer(LoopbackTopic topic, Stall stall) {
    this.topic = topic;
    this.stall = stall;
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
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
    for (MessageListener[] consumers : topic.consumers()) {
      consumers[partition % consumers.length].received(payload, partition);
    }
    listener.sendCompleted(token, partition, null);
  }

  @Override
  public void close() {}
}
