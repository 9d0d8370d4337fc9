package io.plumb.driver.rabbitmq;

import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The consumers of one subscription and which partition queue each one reads. Partition {@code p}
 * belongs to member {@code p % members}, like a Kafka consumer group, so every queue has exactly
 * one reader and per-partition order holds. When members join or leave, queues move between them; a
 * stream queue's new owner resumes at the offset after the last one delivered, so the subscription
 * still receives each message once.
 */
final class SubscriptionGroup {

  /** Declares a partition's queue and binds it, on the channel given. */
  @FunctionalInterface
  interface Declaration {
    void declare(Channel channel, int partition, String queue) throws IOException;
  }

  private final String topic;
  private final Declaration declaration;
  private volatile boolean deleted;
  private final String[] queues;
  private final List<AmqpConsumer> members = new ArrayList<>();
  private final AmqpConsumer[] owners;
  // Next stream offset to read per partition (-1: from the first message).
  private final long[] resumeOffsets;

  SubscriptionGroup(String topic, String subscription, int partitions, Declaration declaration) {
    this.topic = topic;
    this.declaration = declaration;
    this.queues = new String[partitions];
    for (int p = 0; p < partitions; p++) {
      queues[p] = RoutingKeys.queueName(topic, subscription, p);
    }
    this.owners = new AmqpConsumer[partitions];
    this.resumeOffsets = new long[partitions];
    Arrays.fill(resumeOffsets, -1);
  }

  List<String> queues() {
    return List.of(queues);
  }

  String topic() {
    return topic;
  }

  /** Declares and binds partition {@code p}'s queue on {@code channel}. */
  void declare(Channel channel, int p) throws IOException {
    declaration.declare(channel, p, queues[p]);
  }

  /** The topic is being deleted: its queues are not to be declared again. */
  void markDeleted() {
    deleted = true;
  }

  boolean deleted() {
    return deleted;
  }

  synchronized void join(AmqpConsumer consumer) throws Exception {
    members.add(consumer);
    rebalance();
  }

  synchronized void leave(AmqpConsumer consumer) throws Exception {
    // Release first so acks are flushed while the channel is still open.
    for (int p = 0; p < owners.length; p++) {
      if (owners[p] == consumer) {
        handOver(p);
      }
    }
    members.remove(consumer);
    rebalance();
  }

  private void rebalance() throws Exception {
    for (int p = 0; p < queues.length; p++) {
      AmqpConsumer wanted = members.isEmpty() ? null : members.get(p % members.size());
      if (owners[p] == wanted) {
        continue;
      }
      if (owners[p] != null) {
        handOver(p);
      }
      if (wanted != null) {
        wanted.acquire(p, queues[p], resumeOffsets[p]);
        owners[p] = wanted;
      }
    }
  }

  private void handOver(int p) throws Exception {
    long last = owners[p].release(p);
    if (last >= 0) {
      resumeOffsets[p] = last + 1;
    }
    owners[p] = null;
  }
}
