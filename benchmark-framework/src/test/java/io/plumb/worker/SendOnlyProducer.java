package io.plumb.worker;

import io.plumb.driver.BenchmarkProducer;
import java.util.concurrent.CompletableFuture;

/**
 * A test driver's producer that is nothing but its {@code send}: closing it has nothing to release,
 * so a driver writes the send as a lambda.
 */
@FunctionalInterface
public interface SendOnlyProducer extends BenchmarkProducer {
  @Override
  default void close() {}

  /** {@code producer} as {@code createProducer} returns it. */
  static CompletableFuture<BenchmarkProducer> completed(SendOnlyProducer producer) {
    return CompletableFuture.completedFuture(producer);
  }
}
