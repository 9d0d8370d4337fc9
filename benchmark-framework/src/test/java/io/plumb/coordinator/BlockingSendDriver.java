package io.plumb.coordinator;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.loopback.LoopbackDriver;
import io.plumb.worker.TappedProducer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * The loopback driver behind a client whose send() blocks 50 ms every time, as a client with a full
 * buffer waits for the broker: a producer thread can send at most 20 msg/s, asleep nearly all the
 * while. Long blocks keep the verdict clear on a busy host, where each wake-up can wait a
 * millisecond or more for a core (with 2 ms blocks that wait was 40% of the thread's time).
 */
public final class BlockingSendDriver implements BenchmarkDriver {
  static final long BLOCK_NANOS = 50_000_000;

  private final LoopbackDriver loopback = new LoopbackDriver();

  @Override
  public void initialize(DriverConfig config) throws Exception {
    loopback.initialize(config);
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return loopback.createTopic(topic, partitions);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return loopback
        .createProducer(topic)
        .thenApply(
            producer ->
                new TappedProducer(
                    producer,
                    (key, payload) -> {
                      long until = System.nanoTime() + BLOCK_NANOS;
                      for (long left = BLOCK_NANOS; left > 0; left = until - System.nanoTime()) {
                        LockSupport.parkNanos(left);
                      }
                    }));
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    return loopback.createConsumer(topic, subscription, listener);
  }

  @Override
  public void close() throws Exception {
    loopback.close();
  }
}
