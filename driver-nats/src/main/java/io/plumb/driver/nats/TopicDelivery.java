package io.plumb.driver.nats;

import io.nats.client.Message;
import io.nats.client.MessageHandler;
import io.plumb.driver.MessageListener;
import java.util.function.Consumer;

/**
 * The handler core NATS and JetStream consumers give jnats: each message on a topic's partition
 * subjects goes to the listener with the partition its subject names (and Plumb's header apart, see
 * {@link NatsHeader#deliver}), then to {@code afterDelivery}: JetStream's acknowledgement, nothing
 * for core NATS. What throws reaches the listener as a failure, and a message whose delivery threw
 * is not acknowledged, so JetStream delivers it again after its ack wait.
 */
final class TopicDelivery {
  private TopicDelivery() {}

  static MessageHandler handler(
      String topic, MessageListener listener, Consumer<Message> afterDelivery) {
    int prefix = topic.length() + 1;
    return message -> {
      try {
        NatsHeader.deliver(message, Subjects.partitionOf(message.getSubject(), prefix), listener);
        afterDelivery.accept(message);
      } catch (RuntimeException e) {
        listener.failed(e);
      }
    };
  }
}
