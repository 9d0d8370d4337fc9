package io.plumb.driver.pulsar;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;

/**
 * Hands each message to the framework's listener with its partition index, then acknowledges it
 * asynchronously; a failed acknowledgement is reported through {@link MessageListener#failed},
 * unless it failed because this consumer was being closed.
 */
final class PulsarConsumer implements BenchmarkConsumer {
  private volatile Consumer<byte[]> consumer;
  private volatile boolean closing;

  /** The client's message listener; attached before subscribing, so nothing arrives unseen. */
  org.apache.pulsar.client.api.MessageListener<byte[]> dispatcher(MessageListener listener) {
    return (consumer, message) -> {
      listener.received(message.getData(), partitionOf(message));
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

  @Override
  public void close() throws Exception {
    closing = true;
    Consumer<byte[]> c = consumer;
    if (c != null) {
      c.close();
    }
  }
}
