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
  // Exact for sends the loop waited for and for one in SAMPLE_EVERY of those made back to back;
  // for the others, the time between two readings after send() less Plumb's own work (see run()).
  @SuppressWarnings("unused")
  private long nanosInSend;

  /**
   * Back to back, one send in this many is timed on its own (a clock reading before send() as well
   * as after it), which also measures Plumb's own work per message. A reading costs 18 ns on a
   * 2-core VM; with two per message the loop spent a fifth of its time reading the clock at its
   * ceiling.
   */
  static final int SAMPLE_EVERY = 64;

  /**
   * Back to back, sends this short (as the last timed one was) share one clock reading, at most
   * {@link #SHARED_READING_SENDS} of them: each counts as sent at the reading before the first and,
   * completed or delivered inside send(), as done at the reading after the last. Every time they
   * carry is thereby off by at most the group's span, a few hundred nanoseconds, and a reading
   * costs 31 ns on a 2-core VM, a third of the loop's time per message at its ceiling: sharing
   * raised the loopback's capacity 1.40 times (10.3M to 14.4M msg/s). A driver whose send() takes
   * longer (every real broker's client but the fastest) is timed as before.
   */
  static final long SHAREABLE_SEND_NANOS = 250;

  /** The most back-to-back sends that share one clock reading. */
  static final int SHARED_READING_SENDS = 4;

  /**
   * A send() that blocks inside a group blurs the times of the others of its group (three at most:
   * each then carries the block), and a group that took longer than this from the reading before it
   * to the one after ends the sharing until a timed send finds send() short again.
   */
  static final long SHARED_SPAN_LIMIT_NANOS = 1_000;

  /** Timed sends over which Plumb's own work per message is judged (see run()). */
  private static final int OWN_WORK_WINDOW = 16;

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
    long backToBack = 0;
    long inSend = 0;
    // Plumb's own work for a message before send() (header, key, payload): the shortest of the
    // last OWN_WORK_WINDOW timed sends, since a longer one was the thread losing its core.
    long ownWork = 0;
    long shortestOwnWork = Long.MAX_VALUE;
    int ownWorkSamples = 0;
    long now = clock.now();
    // Back-to-back sends since the last reading, whose events wait for the next one's time.
    int grouped = 0;
    boolean sharing = false;
    while (running) {
      if (pendingRate != 0) {
        applyRate(now);
      }
      ProducerTask task = heap[0];
      long due = task.nextIntendedTime();
      // A send the loop waited for reads the clock just before send(): the thread was idle, so
      // the reading is free, and the send delay it gives is exact. Back to back (the message was
      // due by the last reading), the reading after the previous send() is this one's actual
      // send time (Plumb's own work for the message, some 20 ns, counts as send()'s), and one
      // send in SAMPLE_EVERY is timed on its own. Short sends share a reading (see
      // SHAREABLE_SEND_NANOS): a group only ever holds messages due by the reading before it, so
      // none counts as sent before its intended time.
      boolean timed;
      if (now < due) {
        ring.flush();
        now = pacer.waitUntil(due, this);
        if (!running) {
          break;
        }
        timed = true;
      } else {
        timed = (++backToBack & (SAMPLE_EVERY - 1)) == 0;
      }
      // Counted before the driver has it: an acknowledgement can arrive on another thread before
      // send() returns, and a snapshot must never hold an acknowledgement of an uncounted send.
      SENT.setOpaque(this, ++sentCount);
      if (grouped++ == 0) {
        ring.deferTimes();
      }
      long sentAt = task.sendNext(timed ? ProducerTask.READ_CLOCK : now);
      siftDown(0);
      if (sharing
          && grouped < SHARED_READING_SENDS
          && heap[0].nextIntendedTime() <= now
          && ((backToBack + 1) & (SAMPLE_EVERY - 1)) != 0
          && pendingRate == 0
          && running) {
        continue;
      }
      long after = clock.now();
      ring.stampDeferred(after);
      if (timed) {
        long sendNanos = after - sentAt;
        inSend += sendNanos;
        sharing = sendNanos <= SHAREABLE_SEND_NANOS;
        shortestOwnWork = Math.min(shortestOwnWork, sentAt - now);
        if (++ownWorkSamples == OWN_WORK_WINDOW) {
          ownWork = shortestOwnWork;
          shortestOwnWork = Long.MAX_VALUE;
          ownWorkSamples = 0;
        }
      } else {
        inSend += Math.max(0, after - now - grouped * ownWork);
        if (grouped > 1 && after - now > SHARED_SPAN_LIMIT_NANOS) {
          sharing = false;
        }
      }
      grouped = 0;
      IN_SEND.setOpaque(this, inSend);
      now = after;
    }
    if (grouped > 0) {
      // Stopped in the middle of a group: its events still need their time to be published.
      ring.stampDeferred(clock.now());
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
