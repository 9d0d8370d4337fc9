package io.plumb.cli;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.worker.SendOnlyProducer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A driver whose producers each hold 16 MB, so that creating a few dozen of them runs a small heap
 * out of memory during set-up, as a heavy client library would.
 */
public final class HungryDriver implements BenchmarkDriver {
  private final List<byte[]> held = new ArrayList<>();

  @Override
  public void initialize(DriverConfig config) {}

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    held.add(new byte[16 << 20]);
    return SendOnlyProducer.completed(
        (key, payload, token, listener) -> {
          listener.sendCompleted(token, null);
        });
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    return CompletableFuture.completedFuture(
        new BenchmarkConsumer() {
          @Override
          public void close() {}
        });
  }

  @Override
  public void close() {
    held.clear();
  }
}
