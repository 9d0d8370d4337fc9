package io.plumb.driver.rabbitmq;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;

/**
 * A member of a stream subscription; its group opens and closes the readers it is assigned. While
 * paused, its readers stop crediting the broker (see {@link StreamSubscriptionGroup}).
 */
final class StreamConsumer implements BenchmarkConsumer {
  private final MessageListener listener;
  private final StreamSubscriptionGroup group;
  private volatile boolean paused;

  StreamConsumer(MessageListener listener, StreamSubscriptionGroup group) {
    this.listener = listener;
    this.group = group;
  }

  MessageListener listener() {
    return listener;
  }

  boolean paused() {
    return paused;
  }

  /** Its readers give the broker no more credit: delivery stops within a few chunks. */
  @Override
  public void pause() {
    paused = true;
  }

  /** Its readers return the credits they withheld; delivery continues at the next offset. */
  @Override
  public void resume() {
    paused = false;
    group.resume(this);
  }

  @Override
  public void close() {
    group.leave(this);
  }
}
