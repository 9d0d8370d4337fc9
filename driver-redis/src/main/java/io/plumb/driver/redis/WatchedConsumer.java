package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkConsumer;

/**
 * A consumer that stops hearing of primary changes when it closes, as {@link WatchedProducer} is
 * for producers; pause and resume go straight to it.
 */
record WatchedConsumer(BenchmarkConsumer consumer, Runnable unwatch) implements BenchmarkConsumer {

  @Override
  public void pause() {
    consumer.pause();
  }

  @Override
  public void resume() {
    consumer.resume();
  }

  @Override
  public void close() throws Exception {
    unwatch.run();
    consumer.close();
  }
}
