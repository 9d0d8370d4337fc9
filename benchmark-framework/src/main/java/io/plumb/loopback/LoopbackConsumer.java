package io.plumb.loopback;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.util.concurrent.locks.LockSupport;

/**
 * One consumer: a thread that takes messages from its delivery queue and hands them to the
 * framework's listener. When the queue stays empty it parks for at most 50 us, so an idle consumer
 * costs little CPU and a message waits at most that long for a sleeping consumer.
 */
final class LoopbackConsumer implements BenchmarkConsumer {
  private static final int SPINS_BEFORE_PARKING = 2_000;
  private static final long PARK_NANOS = 50_000;

  private final DeliveryQueue queue;
  private final MessageListener listener;
  private final Thread thread;
  private final Runnable onClose;
  private volatile boolean running = true;

  LoopbackConsumer(DeliveryQueue queue, MessageListener listener, String name, Runnable onClose) {
    this.queue = queue;
    this.listener = listener;
    this.onClose = onClose;
    this.thread = new Thread(this::deliver, name);
    thread.setDaemon(true);
    thread.start();
  }

  void put(byte[] payload, int partition) {
    queue.put(payload, partition);
  }

  private void deliver() {
    DeliveryQueue.Sink sink = listener::received;
    int idle = 0;
    while (running) {
      if (queue.poll(sink)) {
        idle = 0;
      } else if (++idle < SPINS_BEFORE_PARKING) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(PARK_NANOS);
      }
    }
    while (queue.poll(sink)) {
      // hand over what was accepted before close
    }
  }

  @Override
  public void close() throws InterruptedException {
    onClose.run();
    running = false;
    thread.join(10_000);
  }
}
