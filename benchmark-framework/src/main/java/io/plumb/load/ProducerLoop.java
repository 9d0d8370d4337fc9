package io.plumb.load;

import io.plumb.stats.EventRing;
import io.plumb.stats.ProducerThreadTimes;
import io.plumb.stats.StatsCollector;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * One thread sending for a fixed set of producers, always the one whose next message is due
 * earliest (a binary heap on intended send time). It never waits for the broker: when a send
 * returns late, the messages that fell due meanwhile go out at once with their original intended
 * times, so the delay shows up as latency instead of a quietly lower rate.
 */
final class ProducerLoop implements Runnable {
  private static final VarHandle SENT;
  private static final VarHandle IN_SEND;
  private static final VarHandle PENDING_RATE;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      SENT = lookup.findVarHandle(ProducerLoop.class, "sent", long.class);
      IN_SEND = lookup.findVarHandle(ProducerLoop.class, "nanosInSend", long.class);
      PENDING_RATE = lookup.findVarHandle(ProducerLoop.class, "pendingRate", double.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ProducerTask[] heap;
  private final WorkerClock clock;
  private final StatsCollector stats;
  private final Pacer pacer;
  private volatile boolean running = true;

  // A rate change asked for by another thread, 0 when none: the loop applies it between sends, so
  // the send path reads it once per message and otherwise never changes.
  private volatile double pendingRate;

  // Written only by this loop's thread (opaque stores, no atomics); read by the stats collector.
  @SuppressWarnings("unused")
  private long sent;

  // Time inside the driver's send() only: from the reading just before it to the one after.
  @SuppressWarnings("unused")
  private long nanosInSend;

  private volatile ProducerThreadClock threadClock;

  /**
   * @param pacing how to wait between sends
   * @param loops producer loops of the worker, which share efficient pacing's wake-ups
   */
  ProducerLoop(
      List<ProducerTask> tasks, WorkerClock clock, StatsCollector stats, Pacing pacing, int loops) {
    this.heap = tasks.toArray(new ProducerTask[0]);
    this.clock = clock;
    this.stats = stats;
    this.pacer = new Pacer(clock, pacing, loops);
  }

  boolean running() {
    return running;
  }

  void stop() {
    running = false;
  }

  /**
   * Every producer of this loop changes to {@code messagesPerSecond} before its next send (or, when
   * the loop is waiting for a send time, right after that send).
   */
  void adjustRate(double messagesPerSecond) {
    pendingRate = messagesPerSecond;
  }

  long sent() {
    return (long) SENT.getOpaque(this);
  }

  long nanosInSend() {
    return (long) IN_SEND.getOpaque(this);
  }

  /** Messages due by {@code time} that this loop has not sent yet. */
  long lagBy(long time) {
    long due = 0;
    for (ProducerTask task : heap) {
      due += task.dueBy(time);
    }
    return Math.max(0, due - sent());
  }

  @Override
  public void run() {
    threadClock = ProducerThreadClock.forCurrentThread();
    EventRing ring = stats.loopRing();
    pacer.onThreadStart();
    for (ProducerTask task : heap) {
      task.attach(Thread.currentThread(), ring);
    }
    buildHeap();
    long sentCount = 0;
    long inSend = 0;
    long now = clock.now();
    while (running) {
      if (pendingRate != 0) {
        applyRate(now);
      }
      ProducerTask task = heap[0];
      long due = task.nextIntendedTime();
      if (now < due) {
        ring.flush();
        now = pacer.waitUntil(due, this);
        if (!running) {
          break;
        }
      }
      // Counted before the driver has it: an acknowledgement can arrive on another thread before
      // send() returns, and a snapshot must never hold an acknowledgement of an uncounted send.
      SENT.setOpaque(this, ++sentCount);
      ring.deferTimes();
      long sentAt = task.sendNext();
      long after = clock.now();
      ring.stampDeferred(after);
      inSend += after - sentAt;
      now = after;
      IN_SEND.setOpaque(this, inSend);
      siftDown(0);
    }
    ring.flush();
    threadClock.finish();
  }

  /** This loop's thread's times so far, or none before it started. */
  ProducerThreadTimes threadTimes() {
    ProducerThreadClock started = threadClock;
    return started == null ? ProducerThreadTimes.NONE : started.read();
  }

  private void applyRate(long now) {
    // getAndSet: a change asked for after the read above is applied next time, never dropped.
    double rate = (double) PENDING_RATE.getAndSet(this, 0.0);
    for (ProducerTask task : heap) {
      task.adjustRate(rate, now);
    }
    buildHeap();
  }

  private void buildHeap() {
    for (int i = heap.length / 2 - 1; i >= 0; i--) {
      siftDown(i);
    }
  }

  private void siftDown(int index) {
    int size = heap.length;
    ProducerTask moving = heap[index];
    long key = moving.nextIntendedTime();
    while (true) {
      int child = 2 * index + 1;
      if (child >= size) {
        break;
      }
      long childKey = heap[child].nextIntendedTime();
      if (child + 1 < size) {
        long rightKey = heap[child + 1].nextIntendedTime();
        if (rightKey < childKey) {
          child++;
          childKey = rightKey;
        }
      }
      if (key <= childKey) {
        break;
      }
      heap[index] = heap[child];
      index = child;
    }
    heap[index] = moving;
  }
}
