package io.plumb.coordinator;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.DriverConfig;
import io.plumb.worker.EveryConsumerDriver;
import io.plumb.worker.SendOnlyProducer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A broker stand-in that acknowledges every send at once and delivers it to every subscription
 * {@value #DELIVERY_MILLIS} ms later: at any instant under load, the last {@value #DELIVERY_MILLIS}
 * ms of acknowledged messages are in flight, which is what a count from two different reads gets
 * wrong.
 */
public final class LateDeliveryDriver extends EveryConsumerDriver {
  static final long DELIVERY_MILLIS = 300;

  private final ScheduledExecutorService deliveries =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("late-delivery"));

  @Override
  public void initialize(DriverConfig config) throws Exception {
    config.settings().finish();
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return SendOnlyProducer.completed(
        (key, payload, token, listener) -> {
          byte[] copy = payload.clone();
          listener.sendCompleted(token, null);
          deliveries.schedule(
              () -> consumers.forEach(consumer -> consumer.received(copy, 0)),
              DELIVERY_MILLIS,
              TimeUnit.MILLISECONDS);
        });
  }

  @Override
  public void close() {
    deliveries.shutdownNow();
  }
}
