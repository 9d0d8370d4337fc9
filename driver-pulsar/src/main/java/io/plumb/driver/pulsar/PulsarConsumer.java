package io.plumb.driver.pulsar;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;

/**
 * Hands each message to the framework's listener with its partition index (and with its header
 * apart when it travelled as a message property, {@link PulsarHeader}), then acknowledges it
 * asynchronously; a failed acknowledgement is reported through {@link MessageListener#failed},
 * unless it failed because this consumer was being closed. Pauses and resumes with the client's own
 * {@link Consumer#pause()} and {@link Consumer#resume()} (backlog workloads).
 */
final class PulsarConsumer implements BenchmarkConsumer {
  private volatile Consumer<byte[]> consumer;
  private volatile boolean closing;

  /** The client's message listener; attached before subscribing, so nothing arrives unseen. */
  org.apache.pulsar.client.api.MessageListener<byte[]> dispatcher(MessageListener listener) {
    return (consumer, message) -> {
      PulsarHeader.deliver(message, partitionOf(message), listener);
      consumer
          .acknowledgeAsync(message)
          .exceptionally(
              failure -> {
                // A message received just before close() (the end of a run) cannot be
                // acknowledged any more ("Consumer already closed"): that is the run ending, not
                // a consumer error, and counting it reported failures that did not happen.
                if (!closing) {
                  listener.failed(failure);
                }
                return null;
              });
    };
  }

  /** {@code persistent://tenant/ns/topic-partition-<p>}: the index after the last marker. */
  static int partitionOf(Message<byte[]> message) {
    String topic = message.getTopicName();
    int marker = topic == null ? -1 : topic.lastIndexOf("-partition-");
    if (marker < 0) {
      return MessageListener.UNKNOWN_PARTITION;
    }
    try {
      return Integer.parseInt(topic, marker + "-partition-".length(), topic.length(), 10);
    } catch (NumberFormatException e) {
      return MessageListener.UNKNOWN_PARTITION;
    }
  }

  void attach(Consumer<byte[]> consumer) {
    this.consumer = consumer;
  }

  /**
   * The client stops granting the broker permits (flow commands), so the broker stops dispatching
   * once the permits it already holds are used; it only sets a flag, so it returns at once. The
   * subscription is durable, so what producers send meanwhile stays on the broker as the
   * subscription's backlog (nothing acknowledges it, and retention only concerns acknowledged
   * messages), unless a backlog quota or message TTL of the broker or namespace intervenes: the
   * README says which settings.
   *
   * <p>Messages still arrive after this returns: those already in the client's queues, and those
   * the broker sends on permits granted before the pause, at most {@code receiverQueueSize} per
   * partition (capped by {@code maxTotalReceiverQueueSizeAcrossPartitions} over a partitioned
   * topic: 50,000 in all with {@code pulsar.yaml} and 16 partitions, 2.5 s of {@code
   * backlog-1kb.yaml}'s 20,000 msg/s; about 59,000 arrived in its first 3 s, the consumer being
   * behind then). That is harmless: they are received and acknowledged as usual, so nothing is lost
   * or counted twice, and the framework's backlog is sent minus received, so the build just starts
   * once they are through. Holding them back in the listener instead would block the client's
   * listener thread, and dropping the queue (redelivering unacknowledged messages) would deliver
   * the not yet acknowledged ones a second time.
   */
  @Override
  public void pause() {
    consumer.pause();
  }

  /**
   * Grants the broker permits again (at once if half the receiver queue's worth is free, as after
   * any pause longer than the broker's remaining permits), and the broker dispatches from the
   * subscription's read position, which pause did not move: the next message is the one after the
   * last delivered, none skipped, none repeated.
   */
  @Override
  public void resume() {
    consumer.resume();
  }

  @Override
  public void close() throws Exception {
    closing = true;
    Consumer<byte[]> c = consumer;
    if (c != null) {
      c.close();
    }
  }
}
