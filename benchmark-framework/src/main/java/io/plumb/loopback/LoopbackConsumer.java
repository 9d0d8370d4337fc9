package io.plumb.loopback;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.DaemonThreads;
import io.plumb.driver.MessageListener;
import java.util.ArrayDeque;

/**
 * One consumer of a loopback subscription. Delivery happens inside the producer's send() until the
 * consumer is first paused; from then on every message is copied into a queue (the loopback
 * "broker" keeps the backlog) and a thread of this consumer's own delivers the queue in order
 * whenever it is not paused. Neither pause nor resume blocks the producer threads.
 *
 * <p>Delivery never moves back to the producers' threads: the framework records each thread's
 * deliveries separately, so handing a partition from one thread to another and back could show
 * later messages before earlier ones.
 */
final class LoopbackConsumer implements BenchmarkConsumer, MessageListener {
  private final MessageListener listener;
  private final Runnable unsubscribe;
  private final ArrayDeque<Queued> queue = new ArrayDeque<>();

  /** Set at the first pause; read without the lock on the direct path. */
  private volatile boolean queued;

  private boolean paused;
  private boolean closed;

  private record Queued(byte[] payload, int partition) {}

  LoopbackConsumer(MessageListener listener, Runnable unsubscribe) {
    this.listener = listener;
    this.unsubscribe = unsubscribe;
  }

  @Override
  public void received(byte[] payload, int partition) {
    if (!queued) {
      listener.received(payload, partition);
      return;
    }
    synchronized (this) {
      // The producer reuses its array after send() returns.
      queue.add(new Queued(payload.clone(), partition));
      if (!paused) {
        notifyAll();
      }
    }
  }

  @Override
  public void failed(Throwable error) {
    listener.failed(error);
  }

  @Override
  public synchronized void pause() {
    paused = true;
    if (!queued) {
      queued = true;
      DaemonThreads.start("loopback-consumer", this::deliver);
    }
  }

  @Override
  public synchronized void resume() {
    paused = false;
    notifyAll();
  }

  /** Delivers the queue in order whenever the consumer is not paused, until it is closed. */
  private void deliver() {
    while (true) {
      Queued next;
      synchronized (this) {
        while (!closed && (paused || queue.isEmpty())) {
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        next = queue.poll();
      }
      listener.received(next.payload(), next.partition());
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      queue.clear();
      notifyAll();
    }
    unsubscribe.run();
  }
}
