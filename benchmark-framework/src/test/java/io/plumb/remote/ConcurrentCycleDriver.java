package io.plumb.remote;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.BenchmarkDriver;
import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A broker stand-in that acknowledges and delivers every message at once and, at its {@value
 * #CYCLE_AFTER_MESSAGES}th message, asks for a collection: in a JVM run with G1 and {@code
 * -XX:+ExplicitGCInvokesConcurrent} that is a concurrent cycle, with its Remark and Cleanup pauses,
 * during the run's load.
 */
public final class ConcurrentCycleDriver implements BenchmarkDriver {
  static final long CYCLE_AFTER_MESSAGES = 3_000;

  private final List<MessageListener> consumers = new CopyOnWriteArrayList<>();
  private final AtomicLong messages = new AtomicLong();

  @Override
  public void initialize(DriverConfig config) throws Exception {
    config.settings().ignore("name", "driverClass").finish();
  }

  @Override
  public CompletableFuture<Void> createTopic(String topic, int partitions) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return CompletableFuture.completedFuture(
        new BenchmarkProducer() {
          @Override
          public void send(String key, byte[] payload, long token, SendListener listener) {
            listener.sendCompleted(token, null);
            consumers.forEach(consumer -> consumer.received(payload, 0));
            if (messages.incrementAndGet() == CYCLE_AFTER_MESSAGES) {
              // Off the producer's thread: the cycle's request waits for the cycle to end.
              Thread cycle = new Thread(System::gc, "concurrent-cycle");
              cycle.setDaemon(true);
              cycle.start();
            }
          }

          @Override
          public void close() {}
        });
  }

  @Override
  public CompletableFuture<BenchmarkConsumer> createConsumer(
      String topic, String subscription, MessageListener listener) {
    consumers.add(listener);
    return CompletableFuture.completedFuture(() -> consumers.remove(listener));
  }

  @Override
  public void close() {}
}
