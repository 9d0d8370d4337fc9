package io.plumb.driver.redis;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;

/**
 * A producer that stops hearing of primary changes when it closes: both sends go straight to it,
 * the one with the header apart included (the interface's default would refuse it).
 */
record WatchedProducer(BenchmarkProducer producer, Runnable unwatch) implements BenchmarkProducer {

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    producer.send(key, payload, token, listener);
  }

  @Override
  public void send(String key, byte[] header, byte[] payload, long token, SendListener listener) {
    producer.send(key, header, payload, token, listener);
  }

  @Override
  public void close() throws Exception {
    unwatch.run();
    producer.close();
  }
}
