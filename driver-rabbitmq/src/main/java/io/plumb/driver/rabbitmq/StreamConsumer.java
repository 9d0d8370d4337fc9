package io.plumb.driver.rabbitmq;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;

/** A member of a stream subscription; its group opens and closes the readers it is assigned. */
final class StreamConsumer implements BenchmarkConsumer {
  private final MessageListener listener;
  private final StreamSubscriptionGroup group;

  StreamConsumer(MessageListener listener, StreamSubscriptionGroup group) {
    this.listener = listener;
    this.group = group;
  }

  MessageListener listener() {
    return listener;
  }

  @Override
  public void close() {
    group.leave(this);
  }
}
