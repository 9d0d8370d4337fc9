package io.plumb.search;

import io.plumb.driver.BenchmarkProducer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.DriverConfig;
import io.plumb.driver.MessageListener;
import io.plumb.driver.SendListener;
import io.plumb.input.YamlFields;
import io.plumb.worker.EveryConsumerDriver;
import io.plumb.worker.SendOnlyProducer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A broker stand-in for the search tests whose capacity is known: one "broker" thread serves
 * messages in arrival order at most {@code capacity} per second (acknowledging each and handing it
 * to every subscription); {@code changeAfterSeconds} after the driver starts, the capacity becomes
 * {@code laterCapacity}. send() never blocks, so above capacity the unacknowledged messages and the
 * backlog grow, as on a saturated broker.
 */
public final class CapacityDriver extends EveryConsumerDriver {
  /**
   * Idle time is banked up to this much service: enough to ride out a late wake-up on a busy host.
   */
  private static final double MAX_BURST_SECONDS = 0.05;

  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private double capacity;
  private double laterCapacity;
  private long changeAtNanos;
  private Thread broker;

  private record Pending(byte[] payload, long token, SendListener listener) {}

  @Override
  public void initialize(DriverConfig config) {
    YamlFields fields = YamlFields.read(config.file());
    fields.string("name");
    fields.string("driverClass");
    capacity = fields.number("capacity", 0, true, 1e9).orElseThrow();
    laterCapacity = fields.number("laterCapacity", 0, true, 1e9).orElse(capacity);
    double changeAfter = fields.number("changeAfterSeconds", 0, false, 1e6).orElse(1e6);
    fields.rejectUnknownFields();
    changeAtNanos = System.nanoTime() + (long) (changeAfter * 1e9);
    broker = DaemonThreads.start("capacity-broker", this::serve);
  }

  private void serve() {
    long last = System.nanoTime();
    double credit = 0;
    while (running.get()) {
      long now = System.nanoTime();
      double rate = now < changeAtNanos ? capacity : laterCapacity;
      credit = Math.min(credit + rate * (now - last) / 1e9, Math.max(1, rate * MAX_BURST_SECONDS));
      last = now;
      while (credit >= 1) {
        Pending next = queue.poll();
        if (next == null) {
          break;
        }
        credit -= 1;
        for (MessageListener consumer : consumers) {
          consumer.received(next.payload(), 0);
        }
        next.listener().sendCompleted(next.token(), null);
      }
      LockSupport.parkNanos(100_000);
    }
  }

  @Override
  public CompletableFuture<BenchmarkProducer> createProducer(String topic) {
    return SendOnlyProducer.completed(
        (key, payload, token, listener) -> {
          queue.add(new Pending(payload.clone(), token, listener));
        });
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    broker.join(5000);
  }
}
