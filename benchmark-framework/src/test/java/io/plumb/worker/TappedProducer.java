package io.plumb.worker;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.SendListener;

/** A test driver's producer that does something before each send, then sends with another. */
public final class TappedProducer implements BenchmarkProducer {
  /** What happens before each send; {@code payload} is valid only until it returns. */
  @FunctionalInterface
  public interface Tap {
    void beforeSend(String key, byte[] payload);
  }

  private final BenchmarkProducer inner;
  private final Tap tap;

  public TappedProducer(BenchmarkProducer inner, Tap tap) {
    this.inner = inner;
    this.tap = tap;
  }

  @Override
  public void send(String key, byte[] payload, long token, SendListener listener) {
    tap.beforeSend(key, payload);
    inner.send(key, payload, token, listener);
  }

  @Override
  public void close() throws Exception {
    inner.close();
  }
}
