package io.plumb.loopback;

import io.plumb.driver.BenchmarkConsumer;
import io.plumb.driver.MessageListener;
import java.util.ArrayDeque;

/**
 * One consumer of a loopback subscription. Delivery normally happens inside the producer's send();
 * while paused, messages are copied into a queue instead (the loopback "broker" keeps the backlog),
 * and after {@link #resume} a thread of this consumer's own delivers the queue in order before
 * delivery goes back to the direct path. Neither pause nor resume blocks the producer threads.
 */
final class LoopbackConsumer implements BenchmarkConsumer, MessageListener {
  private final MessageListener listener;
  private final Runnable unsubscribe;
  private final ArrayDeque<Queued> queue = new ArrayDeque<>();

  /** True while paused or while the queue drains; read without the lock on the fast path. */
  private volatile boolean buffering;

  private boolean paused;
  private boolean draining;

  private record Queued(byte[] payload, int partition) {}

  LoopbackConsumer(MessageListener listener, Runnable unsubscribe) {
    this.listener = listener;
    this.unsubscribe = unsubscribe;
  }

  @Override
  public void received(byte[] payload, int partition) {
    if (!buffering) {
      listener.received(payload, partition);
      return;
    }
    synchronized (this) {
      if (buffering) {
        // The producer reuses its array after send() returns.
        queue.add(new Queued(payload.clone(), partition));
        return;
      }
    }
    listener.received(payload, partition);
  }

  @Override
  public void failed(Throwable error) {
    listener.failed(error);
  }

  @Override
  public synchronized void pause() {
    paused = true;
    buffering = true;
  }

  @Override
  public synchronized void resume() {
    if (!paused) {
      return;
    }
    paused = false;
    if (!draining) {
      draining = true;
      Thread drainer = new Thread(this::drain, "loopback-consumer-drain");
      drainer.setDaemon(true);
      drainer.start();
    }
  }

  /** Delivers the queue in order; hands delivery back to the direct path once it is empty. */
  private void drain() {
    while (true) {
      Queued next;
      synchronized (this) {
        if (paused) {
          draining = false; // paused again: keep queueing; the next resume starts a new drain
          return;
        }
        next = queue.poll();
        if (next == null) {
          buffering = false;
          draining = false;
          return;
        }
      }
      listener.received(next.payload(), next.partition());
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      paused = true; // stops a running drain
      queue.clear();
    }
    unsubscribe.run();
  }
}
